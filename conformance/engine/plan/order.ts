// Run order = report order: requirement groups from the foundations (is it up, does auth
// work, are lists lists) to the elaborate (webhooks, sync), rate limits last because they
// drain the target's per-IP budget. The first failing MUST in this order is the root failure.

import { familyOf } from '../../spec/requirements.ts';

export const GROUP_ORDER: readonly string[] = [
  'HEALTH',
  'AUTH',
  'API',
  'LIST',
  'DETAIL',
  'ITEM',
  'PAGE',
  'SORT',
  'FILTER',
  'LIMIT',
  'ERR',
  'WF',
  'SCOPE',
  'WRITE',
  'ROUTE',
  'ONTO',
  'DT',
  'DICT',
  'ASSET',
  'TOKEN',
  'SESSION',
  'HOOK',
  'FEED',
  'SYNC',
  'VER',
  'RATE',
];

/** The requirement group of a check: the family of its first requirement. */
export function groupOf(requirements: readonly string[]): string {
  return familyOf(requirements[0] ?? 'OTHER-000');
}

export function groupRank(group: string): number {
  const bare = group.replace(/^DEC-/, '');
  const index = GROUP_ORDER.indexOf(bare);
  // Decisions come after the interface's own requirements of the same family.
  return (index === -1 ? GROUP_ORDER.length : index) * 2 + (group.startsWith('DEC-') ? 1 : 0);
}

export interface Orderable {
  id: string;
  group: string;
  order: 'normal' | 'last';
}

export function compareRunOrder(a: Orderable, b: Orderable): number {
  return (
    Number(a.order === 'last') - Number(b.order === 'last') ||
    groupRank(a.group) - groupRank(b.group) ||
    a.group.localeCompare(b.group) ||
    a.id.localeCompare(b.id)
  );
}
