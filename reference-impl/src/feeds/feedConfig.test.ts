import { describe, expect, it } from 'vitest';
import { loadFeeds } from './feedConfig.ts';
import { writeFeedsFile } from '../../test/support/feeds/partnerServer.ts';

describe('loadFeeds', () => {
  it('when the shipped demo file is read, then it holds a valid HTTPS feed of the amsterdam account', () => {
    const [feed] = loadFeeds();
    expect(feed).toMatchObject({
      id: 'uitagenda-amsterdam',
      name: 'uitagenda-amsterdam',
      accountId: 'amsterdam',
      entitytype: 'EVENEMENT',
    });
    expect(feed!.url).toMatch(/^https:\/\//);
    expect(feed!.subFeeds.map((s) => s.feedInfoId)).toEqual(['musea', 'festivals']);
  });

  it('when a feed names a CA file, then its PEM is read relative to the feeds file', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const file = writeFeedsFile(
      [{ id: 'f1', accountId: 'acc', userorganisation: 'org', url: 'https://partner.example/feed.json' }],
      pem,
    );
    try {
      expect(loadFeeds(file.path)).toEqual([
        {
          id: 'f1',
          name: 'f1',
          accountId: 'acc',
          userorganisation: 'org',
          url: 'https://partner.example/feed.json',
          entitytype: 'EVENEMENT',
          subFeeds: [],
          ca: pem,
        },
      ]);
    } finally {
      file.remove();
    }
  });

  it('when the file is invalid, then one error names every problem', () => {
    const file = writeFeedsFile([
      { id: 'bad id', accountId: 'acc', userorganisation: 'org', url: 'http://plain.example/feed.json', colour: 'red' },
      {
        id: 'f2',
        name: 'a:b',
        accountId: 'acc',
        userorganisation: 'org',
        url: 'https://p.example/',
        entitytype: 'CONCERT',
        subFeeds: [{ feedInfoId: 'x' }, { feedInfoId: 'x' }],
      },
    ]);
    try {
      const message = (() => {
        try {
          loadFeeds(file.path);
          return '';
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).toContain('feeds[0].colour is not a feed field');
      expect(message).toContain('feeds[0].id must be a string matching');
      expect(message).toContain('feeds[0].url must be an absolute https: URL');
      expect(message).toContain('feeds[1].name must be a string matching');
      expect(message).toContain('feeds[1].entitytype must be EVENEMENT');
      expect(message).toContain('feeds[1].subFeeds[1].feedInfoId x is used twice');
    } finally {
      file.remove();
    }
  });
});
