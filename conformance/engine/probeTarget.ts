// Before any check: is there a Content Service at the base URL? One GET /actuator/health and one
// list call. Unreachable, both 404 (a base URL without /api?) or a refused token mean the suite
// cannot run (exit 2) rather than failing every check.

import { request } from 'undici';

export type ProbeResult = { ok: true; notes: string[] } | { ok: false; message: string };

async function get(
  url: string,
  token: string | undefined,
  timeoutMs: number,
): Promise<{ status: number } | { error: string }> {
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump();
    return { status: res.statusCode };
  } catch (error) {
    const err = error as Error & { code?: string };
    return { error: `${err.code ?? err.name}: ${err.message}` };
  }
}

export async function probeTarget(baseUrl: string, token: string | undefined, timeoutMs: number): Promise<ProbeResult> {
  const base = baseUrl.replace(/\/$/, '');
  const health = await get(`${base}/actuator/health`, undefined, timeoutMs);
  if ('error' in health)
    return { ok: false, message: `target unreachable: GET ${base}/actuator/health failed (${health.error})` };
  const list = await get(`${base}/events?size=1`, token, timeoutMs);
  if ('error' in list) return { ok: false, message: `target unreachable: GET ${base}/events failed (${list.error})` };
  if (health.status === 404 && list.status === 404) {
    return {
      ok: false,
      message: `no Content Service at ${base}: /actuator/health and /events both answered 404 (the base URL normally ends in /api)`,
    };
  }
  if (token && list.status === 401)
    return { ok: false, message: `the consumer token was refused: GET ${base}/events answered 401` };
  return { ok: true, notes: [`GET /actuator/health → ${health.status}`, `GET /events → ${list.status}`] };
}
