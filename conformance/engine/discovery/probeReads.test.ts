import { describe, expect, it } from 'vitest';
import type { ProbeContext } from './probe.ts';
import { probeListFirstPage } from './probeReads.ts';

/** A context whose GET /events answers, per `page` query, a status and the listed item ids. */
function contextAnswering(pages: Record<string, { status: number; ids: string[] }>): ProbeContext {
  const http = {
    async get(_path: string, options: { query?: Record<string, unknown> }) {
      const answer = pages[String(options.query?.page ?? 'none')] ?? { status: 200, ids: [] };
      return { status: answer.status, body: answer.ids.map((id) => ({ id })) };
    },
  };
  return { http, writer: 'consumer' } as unknown as ProbeContext;
}

describe('discovery of the first page number', () => {
  it('when a page holds no item, then the note says so in words, never "undefined"', async () => {
    const finding = await probeListFirstPage(
      contextAnswering({
        none: { status: 200, ids: ['a'] },
        '0': { status: 200, ids: ['a'] },
        '1': { status: 200, ids: [] },
      }),
    );
    expect(finding.found.listFirstPage).toBe(0);
    expect(finding.notes.listFirstPage).toBe('without page → 200, item a, page 0 → 200, item a, page 1 → 200, no item');
  });

  it('when page 0 is refused, then the note gives its status alone', async () => {
    const finding = await probeListFirstPage(
      contextAnswering({
        none: { status: 200, ids: ['a'] },
        '0': { status: 400, ids: [] },
        '1': { status: 200, ids: ['a'] },
      }),
    );
    expect(finding.found.listFirstPage).toBe(1);
    expect(finding.notes.listFirstPage).toBe('without page → 200, item a, page 0 → 400, page 1 → 200, item a');
  });
});
