// (d) Every operation is fully described, (e) rate limiting is declared on exactly the limited
// operations, (f) bearer authentication is required everywhere except health, sign-in, refresh
// and webhooks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRef } from '../../spec/index.ts';
import { loadSpec, operations, repoRoot, type Operation } from './spec.ts';

const spec = loadSpec();
const ops = operations(spec);
const paths = ops.filter((o) => o.section === 'paths');

const RATE_LIMITED = [
  'GET /events',
  'GET /locations',
  'GET /routes',
  'GET /eventgroups',
  'GET /venues',
  'GET /dictionary',
];
const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Policy'];
/** Throttled beyond the interface (DEC-AUTH-016): a 429 with Retry-After, not x-rate-limited. */
const AUTH_THROTTLED = ['POST /auth/signin', 'POST /auth/refresh'];
const PUBLIC = ['GET /actuator/health', 'POST /auth/signin', 'POST /auth/refresh'];

function responses(o: Operation): Array<{ status: string; response: Record<string, any> }> {
  return Object.entries((o.op.responses ?? {}) as Record<string, unknown>).map(([status, raw]) => ({
    status,
    response: resolveRef(spec, raw),
  }));
}

function headerNames(response: Record<string, any> | undefined): string[] {
  return Object.keys(response?.headers ?? {}).map((h) => h.toLowerCase());
}

function hasExample(media: Record<string, any>): boolean {
  if (media.example !== undefined) return true;
  if (media.examples && Object.keys(media.examples).length > 0) return true;
  const schema = resolveRef(spec, media.schema);
  return schema?.example !== undefined || (Array.isArray(schema?.examples) && schema.examples.length > 0);
}

function effectiveSecurity(o: Operation): unknown[] | undefined {
  if (o.section === 'webhooks') return o.op.security; // root security does not apply to webhooks
  return (o.op.security ?? spec.security) as unknown[] | undefined;
}

describe('operations of the bundled spec', () => {
  it('when the spec is bundled, then it has operations and webhooks', () => {
    expect(paths.length).toBeGreaterThan(30);
    expect(ops.filter((o) => o.section === 'webhooks')).toHaveLength(10);
  });

  it('when an operation is described, then it has a unique operationId, a summary, a description and x-requirements', () => {
    const bad: string[] = [];
    for (const o of ops) {
      for (const field of ['operationId', 'summary', 'description'] as const) {
        if (typeof o.op[field] !== 'string' || o.op[field].trim() === '') bad.push(`${o.label}: no ${field}`);
      }
      const reqs = o.op['x-requirements'];
      if (!Array.isArray(reqs) || reqs.length === 0) bad.push(`${o.label}: no x-requirements`);
    }
    const ids = ops.map((o) => o.op.operationId);
    for (const id of ids.filter((id, i) => ids.indexOf(id) !== i)) bad.push(`operationId ${id} is used twice`);
    expect(bad).toEqual([]);
  });

  it('when an operation is tagged, then it has exactly one tag and that tag is declared at the top', () => {
    const declared = new Set(((spec.tags ?? []) as Array<{ name: string }>).map((t) => t.name));
    const bad = ops
      .filter((o) => !Array.isArray(o.op.tags) || o.op.tags.length !== 1 || !declared.has(o.op.tags[0]))
      .map((o) => `${o.label}: tags ${JSON.stringify(o.op.tags)}`);
    expect(bad).toEqual([]);
  });

  it('when a response has content, then every media type carries an example', () => {
    const bad: string[] = [];
    for (const o of ops) {
      for (const { status, response } of responses(o)) {
        for (const [mediaType, media] of Object.entries((response?.content ?? {}) as Record<string, any>)) {
          if (!hasExample(media)) bad.push(`${o.label} ${status} ${mediaType}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('when a spec/components file exists, then the bundle uses it (no orphan component files)', () => {
    const dir = path.join(repoRoot, 'spec/components');
    const orphans: string[] = [];
    for (const kind of fs.readdirSync(dir)) {
      if (!fs.statSync(path.join(dir, kind)).isDirectory()) continue;
      for (const file of fs.readdirSync(path.join(dir, kind)).filter((f) => f.endsWith('.yaml'))) {
        const name = file.replace(/\.yaml$/, '');
        if (!spec.components?.[kind]?.[name]) orphans.push(`spec/components/${kind}/${file}`);
      }
    }
    expect(orphans).toEqual([]);
  });
});

describe('rate limiting in the bundled spec (x-rate-limited)', () => {
  it('when an operation is rate limited, then it is exactly GET of the five lists or GET /dictionary', () => {
    const limited = ops.filter((o) => o.op['x-rate-limited'] === true).map((o) => o.label);
    expect(limited.sort()).toEqual([...RATE_LIMITED].sort());
    const odd = ops
      .filter((o) => o.op['x-rate-limited'] !== undefined && typeof o.op['x-rate-limited'] !== 'boolean')
      .map((o) => o.label);
    expect(odd).toEqual([]);
  });

  it('when an operation is rate limited, then its 200 sends the X-RateLimit headers and it documents a 429 with Retry-After', () => {
    const bad: string[] = [];
    for (const o of ops.filter((x) => RATE_LIMITED.includes(x.label))) {
      const ok = responses(o).find((r) => r.status === '200')?.response;
      for (const h of RATE_HEADERS)
        if (!headerNames(ok).includes(h.toLowerCase())) bad.push(`${o.label} 200 lacks ${h}`);
      const limited = responses(o).find((r) => r.status === '429')?.response;
      if (!limited) bad.push(`${o.label} has no 429`);
      for (const h of ['Retry-After', ...RATE_HEADERS])
        if (limited && !headerNames(limited).includes(h.toLowerCase())) bad.push(`${o.label} 429 lacks ${h}`);
    }
    expect(bad).toEqual([]);
  });

  it('when an operation is not rate limited, then it has no X-RateLimit headers, and no 429 unless it is the sign-in throttle', () => {
    const bad: string[] = [];
    for (const o of ops.filter((x) => !RATE_LIMITED.includes(x.label))) {
      for (const { status, response } of responses(o)) {
        if (status === '429' && !AUTH_THROTTLED.includes(o.label)) bad.push(`${o.label} documents a 429`);
        for (const h of RATE_HEADERS)
          if (headerNames(response).includes(h.toLowerCase())) bad.push(`${o.label} ${status} sends ${h}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('when sign-in or refresh is throttled (DEC-AUTH-016), then it documents a 429 with Retry-After and the decision', () => {
    const bad: string[] = [];
    for (const o of ops.filter((x) => AUTH_THROTTLED.includes(x.label))) {
      const throttled = responses(o).find((r) => r.status === '429')?.response;
      if (!throttled) bad.push(`${o.label} has no 429`);
      else if (!headerNames(throttled).includes('retry-after')) bad.push(`${o.label} 429 lacks Retry-After`);
      if (!(o.op['x-decision'] as string[] | undefined)?.includes('DEC-AUTH-016'))
        bad.push(`${o.label} does not name DEC-AUTH-016`);
    }
    expect(bad).toEqual([]);
  });
});

describe('authentication in the bundled spec', () => {
  it('when an operation is not health, sign-in, refresh or a webhook, then it requires bearerAuth and nothing else', () => {
    const bad: string[] = [];
    for (const o of paths.filter((x) => !PUBLIC.includes(x.label))) {
      const security = effectiveSecurity(o) as Array<Record<string, unknown>> | undefined;
      const requiresBearer =
        Array.isArray(security) &&
        security.length > 0 &&
        security.every((req) => Object.keys(req).length > 0 && 'bearerAuth' in req);
      if (!requiresBearer) bad.push(`${o.label}: security ${JSON.stringify(security)}`);
      if (!responses(o).some((r) => r.status === '401')) bad.push(`${o.label}: no 401 response`);
    }
    expect(bad).toEqual([]);
  });

  it('when an operation is health, sign-in, refresh or a webhook, then it declares security: []', () => {
    const open = ops.filter((o) => o.section === 'webhooks' || PUBLIC.includes(o.label));
    expect(open).toHaveLength(PUBLIC.length + 10);
    const bad = open
      .filter((o) => !Array.isArray(o.op.security) || o.op.security.length !== 0)
      .map((o) => `${o.label}: security ${JSON.stringify(o.op.security)}`);
    expect(bad).toEqual([]);
  });

  it('when the bearer scheme is declared, then it is HTTP bearer', () => {
    const scheme = resolveRef(spec, spec.components?.securitySchemes?.bearerAuth);
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
