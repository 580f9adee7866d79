import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { isBlackbox, loadRequirements, parseRequirements, RequirementsError } from './requirements.ts';

const entry = (extra: string) =>
  `requirements:\n  - id: FEED-004\n    level: MUST\n    subject: service\n    section: s\n    statement: x\n${extra}`;

describe('parseRequirements: verify and note', () => {
  it('when verify is needs-feed or unobservable, then it is kept with its note; blackbox or absent is black-box', () => {
    const feed = parseRequirements(entry('    verify: needs-feed\n    note: Needs a feed.\n')).get('FEED-004')!;
    expect(feed).toMatchObject({ verify: 'needs-feed', note: 'Needs a feed.' });
    expect(isBlackbox(feed)).toBe(false);
    expect(isBlackbox(parseRequirements(entry('    verify: unobservable\n')).get('FEED-004')!)).toBe(false);
    expect(isBlackbox(parseRequirements(entry('    verify: blackbox\n')).get('FEED-004')!)).toBe(true);
    expect(parseRequirements(entry('')).get('FEED-004')!.verify).toBeUndefined();
  });

  it('when verify has another value, then the catalogue is refused', () => {
    expect(() => parseRequirements(entry('    verify: maybe\n'))).toThrow(RequirementsError);
  });

  it('when the project catalogue marks a requirement as not black-box, then it has a note saying where it is verified', async () => {
    const catalogue = await loadRequirements(fileURLToPath(new URL('../../spec/requirements.yaml', import.meta.url)));
    const marked = catalogue.all.filter((r) => !isBlackbox(r));
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.filter((r) => !r.note).map((r) => r.id)).toEqual([]);
  });
});
