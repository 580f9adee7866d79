// Tamper evidence for published reports. The JSON and HTML reports carry the SHA-256 of the
// canonical form of the result (JSON with object keys sorted, no whitespace: RFC 8785 for the
// values a result holds). `content-conformance verify-report FILE` recomputes it; for an HTML
// report it also re-renders the page from the embedded result and compares, so an edit to the
// visible page is caught too.
//
// A hash proves that a report is unchanged since it was written, if the hash itself came
// from somewhere trusted (the CI log of the run, a signed release note). Anyone can recompute
// a hash for an edited report; publish the hash alongside the report for that reason.

import { createHash } from 'node:crypto';

export interface Integrity {
  algorithm: 'sha256';
  canonicalization: 'RFC8785';
  value: string;
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new TypeError('non-finite numbers cannot be canonicalised');
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function integrityOf(result: object): Integrity {
  const { integrity: _ignored, ...rest } = result as { integrity?: unknown };
  return {
    algorithm: 'sha256',
    canonicalization: 'RFC8785',
    value: createHash('sha256').update(canonicalJson(rest)).digest('hex'),
  };
}

export function withIntegrity<T extends object>(result: T): T & { integrity: Integrity } {
  return { ...result, integrity: integrityOf(result) };
}

export interface VerifyReportOutcome {
  ok: boolean;
  message: string;
}

export function verifyResultObject(doc: unknown): VerifyReportOutcome {
  const claimed = (doc as { integrity?: Partial<Integrity> } | null)?.integrity;
  if (!claimed?.value) return { ok: false, message: 'the report carries no integrity hash' };
  if (claimed.algorithm !== 'sha256')
    return { ok: false, message: `unknown integrity algorithm ${String(claimed.algorithm)}` };
  const actual = integrityOf(doc as object).value;
  return actual === claimed.value
    ? { ok: true, message: `integrity ok: sha256 ${actual}` }
    : { ok: false, message: `integrity mismatch: the report says ${claimed.value}, its content hashes to ${actual}` };
}
