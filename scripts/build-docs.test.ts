import { describe, expect, it } from 'vitest';
import { readRequirements, withTraceability } from './build-docs.ts';

const requirements = [
  { id: 'HOOK-013', level: 'MUST', statement: 'The signed payload is the timestamp, a dot and the raw body.' },
  { id: 'DEC-HOOK-009', level: 'DECISION', statement: 'Deliveries are retried for about 24 hours.' },
];

describe('withTraceability', () => {
  it('when an operation and a webhook carry ids, then each description ends with them, level and statement', () => {
    const doc = {
      paths: {
        '/x': { get: { description: 'Reads x.', 'x-requirements': ['HOOK-013'], 'x-decision': ['DEC-HOOK-009'] } },
      },
      webhooks: { Hook: { post: { 'x-requirements': ['HOOK-013'] } } },
    };
    const out = withTraceability(doc, requirements) as any;
    expect(out.paths['/x'].get.description).toBe(
      'Reads x.\n\n**Requirements and decisions**\n\n' +
        '- **HOOK-013** · MUST · The signed payload is the timestamp, a dot and the raw body.\n' +
        '- **DEC-HOOK-009** · DECISION · Deliveries are retried for about 24 hours.',
    );
    expect(out.webhooks.Hook.post.description).toMatch(
      /^\*\*Requirements and decisions\*\*\n\n- \*\*HOOK-013\*\* · MUST/,
    );
    expect(doc.paths['/x'].get.description).toBe('Reads x.');
  });

  it('when an id is not in the catalogue, then the build fails naming it', () => {
    expect(() =>
      withTraceability({ paths: { '/x': { get: { 'x-requirements': ['NOPE-001'] } } } }, requirements),
    ).toThrow(/NOPE-001 is not in spec\/requirements.yaml/);
  });

  it('when the real catalogue is read, then it has ids with levels', () => {
    const levels = new Set(readRequirements().map((r) => r.level));
    expect([...levels].sort()).toEqual(['DECISION', 'MUST', 'SHOULD']);
  });
});
