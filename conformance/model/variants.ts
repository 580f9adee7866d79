// The choices a target makes where the interface says "not shown". Discovery finds them at the
// start of a run; a vendor may declare them in the config file (declared values win). Checks read
// them from here instead of assuming the reference service's decisions.

import { WORKFLOW_STATUS } from '../../generated/constants.ts';

/** How a created item is found after `POST /<collection>`. */
export type CreatedItemLocator = 'answer-body' | 'location-header' | 'trcid-lookup';

/** Where `PUT` for an item goes: the detail URL, or the collection URL with the id in the body. */
export type UpdatePath = 'detail' | 'collection';

/** How `/dictionary/userorganisations` lays out its entries. */
export type UserOrganisationsShape = 'array' | 'map';

/** How an item reaches a status the interface leaves open (rejected, archived, deleted). */
export type StatusMove = 'post' | 'put' | 'unsupported';

/** The statuses whose moves the interface leaves open. */
export type OpenStatus =
  typeof WORKFLOW_STATUS.rejected | typeof WORKFLOW_STATUS.archived | typeof WORKFLOW_STATUS.deleted;
export const OPEN_STATUSES: readonly OpenStatus[] = [
  WORKFLOW_STATUS.rejected,
  WORKFLOW_STATUS.archived,
  WORKFLOW_STATUS.deleted,
];

/**
 * The members of `apiTokenFilter` that narrow a token to organisations and to workflow statuses,
 * or 'unsupported' when the target's tokens cannot be narrowed through the API.
 */
export type TokenFilter = { organisationsField: string; statusesField: string } | 'unsupported';

export interface TargetVariants {
  createdItem: CreatedItemLocator;
  updatePath: UpdatePath;
  /** Field of a token object that holds its id (e.g. `id`, `tokenId`). */
  tokenIdField: string;
  userOrganisationsShape: UserOrganisationsShape;
  /** Number of the first page of `GET /assets`. */
  assetFirstPage: 0 | 1;
  /** Number of the first page of the item lists (`page`). */
  listFirstPage: 0 | 1;
  /** How each open status is reached. */
  statusMoves: Record<OpenStatus, StatusMove>;
  /** HTTP method of `/auth/logout`. */
  logoutMethod: 'POST' | 'GET' | 'DELETE';
  /** Field names of the sign-in body. */
  signIn: { userField: string; passwordField: string };
  /** Statuses for missing or invalid credentials and for insufficient role. */
  credentialStatuses: { missing: number; invalid: number; forbidden: number };
  /** Whether error answers other than the size rejection carry a JSON body. */
  errorBodies: 'json' | 'other';
  /** The structure of `apiTokenFilter` ("internal structure … not shown"). */
  tokenFilter: TokenFilter;
}

export type VariantName = keyof TargetVariants;

/** Where a variant came from, for the report's "target variants". */
export type VariantSource = 'declared' | 'discovered' | 'default';

/** The reference service's decisions: what a probe that cannot decide falls back to. */
export const DEFAULT_VARIANTS: TargetVariants = {
  createdItem: 'answer-body',
  updatePath: 'detail',
  tokenIdField: 'id',
  userOrganisationsShape: 'array',
  assetFirstPage: 0,
  listFirstPage: 0,
  statusMoves: { rejected: 'post', archived: 'post', deleted: 'post' },
  logoutMethod: 'POST',
  signIn: { userField: 'username', passwordField: 'password' },
  credentialStatuses: { missing: 401, invalid: 401, forbidden: 403 },
  errorBodies: 'json',
  tokenFilter: { organisationsField: 'userorganisations', statusesField: 'wfstatus' },
};

/** The variants in force for a run, each with its source (the report's "target variants"). */
export interface ResolvedVariants {
  values: TargetVariants;
  sources: Record<VariantName, VariantSource>;
  /** Why a probe could not decide, or what it saw, per variant (for the report). */
  notes: Partial<Record<VariantName, string>>;
}

/**
 * Declared values win over discovered ones; a variant neither declared nor discovered keeps the
 * default. Object-valued variants are merged field by field (a vendor may declare one status move).
 */
export function resolveVariants(
  declared: Partial<TargetVariants> | undefined,
  discovered: Partial<TargetVariants>,
  notes: Partial<Record<VariantName, string>> = {},
): ResolvedVariants {
  const values = structuredClone(DEFAULT_VARIANTS) as unknown as Record<VariantName, unknown>;
  const sources = {} as Record<VariantName, VariantSource>;
  for (const name of Object.keys(DEFAULT_VARIANTS) as VariantName[]) {
    const d = declared?.[name];
    const found = discovered[name];
    // An object merges over the value so far, or over the default when that is a word ('unsupported').
    const merge = (v: unknown) => {
      if (typeof v !== 'object' || v === null) return v;
      const base = typeof values[name] === 'object' ? values[name] : DEFAULT_VARIANTS[name];
      return { ...(base as object), ...(v as object) };
    };
    if (found !== undefined) values[name] = merge(found);
    if (d !== undefined) values[name] = merge(d);
    sources[name] = d !== undefined ? 'declared' : found !== undefined ? 'discovered' : 'default';
  }
  return { values: values as unknown as TargetVariants, sources, notes };
}

/** The variants a check works with: those the runner resolved, else the defaults (unit tests). */
export function variantsOf(ctx: { config: { variants?: ResolvedVariants } }): TargetVariants {
  return ctx.config.variants?.values ?? DEFAULT_VARIANTS;
}

/** A variant as the reports show it. */
export interface VariantLine {
  name: VariantName;
  value: string;
  source: VariantSource;
  note?: string;
}

/** One line per variant, e.g. `updatePath: collection (discovered)`. */
export function describeVariants(resolved: ResolvedVariants): VariantLine[] {
  return (Object.keys(resolved.values) as VariantName[]).map((name) => {
    const v = resolved.values[name];
    const value =
      typeof v === 'object'
        ? Object.entries(v)
            .map(([k, x]) => `${k}=${String(x)}`)
            .join(', ')
        : String(v);
    const note = resolved.notes[name];
    return { name, value, source: resolved.sources[name], ...(note ? { note } : {}) };
  });
}
