import { describe, expect, it } from 'vitest';
import { RuleViolation } from './ruleViolation.ts';
import { WF_STATUSES, isRemovalStatus, legacyFlags, normaliseWfstatus } from './workflow.ts';

function caught(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (error) {
    if (error instanceof RuleViolation) return error;
    throw error;
  }
  throw new Error('expected an RuleViolation');
}

describe('normaliseWfstatus', () => {
  it('when a save has no wfstatus, then it is stored as readyforvalidation [WF-007]', () => {
    expect(normaliseWfstatus(undefined)).toBe('readyforvalidation');
    expect(normaliseWfstatus(null)).toBe('readyforvalidation');
  });

  it('when a save has wfstatus draft, then it is stored as readyforvalidation [WF-007]', () => {
    expect(normaliseWfstatus('draft')).toBe('readyforvalidation');
  });

  it('when a save has wfstatus approved, then it is approved, whatever the previous status [WF-009]', () => {
    expect(normaliseWfstatus('approved')).toBe('approved');
  });

  it('when a save has another known status, then it is stored as sent, taking an approved item offline [WF-008]', () => {
    for (const status of ['readyforvalidation', 'rejected', 'archived', 'deleted'] as const) {
      expect(normaliseWfstatus(status)).toBe(status);
      expect(legacyFlags(normaliseWfstatus(status)).offline).toBe(true);
    }
  });

  it('when the status is unknown, then it is a 400 naming the field and the value [WF-002]', () => {
    const error = caught(() => normaliseWfstatus('published'));
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain('wfstatus');
    expect(error.message).toContain('"published"');
    expect(error.details?.[0]?.pointer).toBe('/wfstatus');
    expect(caught(() => normaliseWfstatus('APPROVED')).kind).toBe('invalid');
    expect(caught(() => normaliseWfstatus(1)).kind).toBe('invalid');
  });
});

describe('legacyFlags', () => {
  it('when computed, then they follow the interface table exactly [WF-010] [WF-011] [WF-012] [ITEM-017]', () => {
    expect(legacyFlags('approved')).toEqual({ published: true, deleted: false, offline: false });
    for (const status of ['readyforvalidation', 'rejected', 'archived', 'deleted'] as const) {
      expect(legacyFlags(status)).toEqual({ published: false, deleted: true, offline: true });
    }
  });

  it('when computed for any status, then offline is the negation of published [WF-011] [WF-003]', () => {
    for (const status of WF_STATUSES) {
      const flags = legacyFlags(status);
      expect(flags.offline).toBe(!flags.published);
      expect(flags.published).toBe(status === 'approved');
    }
  });
});

describe('isRemovalStatus', () => {
  it('when the status is archived or deleted, then it is a removal [SYNC-003] [DEC-HOOK-003]', () => {
    expect(WF_STATUSES.filter(isRemovalStatus)).toEqual(['archived', 'deleted']);
  });
});
