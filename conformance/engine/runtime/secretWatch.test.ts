import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../model/exchange.ts';
import { createSecretWatch } from './secretWatch.ts';

const SECRET = 'wnNnRoWEcuGZhN2K1F0VH6H2lhVvsPo0sQsSD-LzuoU';
const exchange = { seq: 1 } as Exchange;

describe('createSecretWatch', () => {
  it('when a watched value shows in a body or a header, then each place is a sighting under its label', () => {
    const watch = createSecretWatch();
    watch.scan('a.before', { text: `{"signingSecret":"${SECRET}"}`, headers: {}, exchange });
    watch.watch(SECRET, 'signingSecret of t1');
    watch.scan('a.later', { text: `{"echo":"${SECRET}"}`, headers: { 'x-debug': `k=${SECRET}` }, exchange });
    watch.scan('a.clean', { text: '{"callBackUrl":"https://x"}', headers: {}, exchange });
    expect(watch.sightings.map((s) => [s.checkId, s.label, s.where])).toEqual([
      ['a.later', 'signingSecret of t1', 'body'],
      ['a.later', 'signingSecret of t1', 'header x-debug'],
    ]);
  });

  it('when a value is too short to be a secret, then it is not watched', () => {
    const watch = createSecretWatch();
    watch.watch('abc', 'short');
    watch.scan('a.b', { text: 'abcabc', headers: {}, exchange });
    expect(watch.sightings).toEqual([]);
  });
});
