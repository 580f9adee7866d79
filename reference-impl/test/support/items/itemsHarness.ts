import { randomUUID } from 'node:crypto';
import type { Role } from '../../../src/http/principal.ts';
import type { Queryable } from '../../../src/storage/db.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../fixtures.ts';

// Test data for the item and dictionary route tests: every test makes its own account with
// unique organisations, so tests never see each other's items (suites share deployments).

export interface TestAccount {
  accountId: string;
  /** The account's organisations; the first is where writes go by default. */
  organisations: string[];
  /** Sees every status of the account's organisations (but not other accounts'). */
  full: string;
  /** Live data only: the DEC-AUTH-004 default. */
  live: string;
  admin: string;
}

export async function newTestAccount(db: Queryable, options: { organisations?: number } = {}): Promise<TestAccount> {
  const accountId = `acc-${randomUUID().slice(0, 12)}`;
  const organisations = Array.from({ length: options.organisations ?? 1 }, (_, i) => `${accountId}-org${i + 1}`);
  await createTestAccount(db, { accountId, organisations });
  const full = (await createTestToken(db, { accountId, wfstatus: ALL_STATUSES })).token;
  const live = (await createTestToken(db, { accountId })).token;
  const admin = (await createTestToken(db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token;
  return { accountId, organisations, full, live, admin };
}

export async function superAdminToken(
  db: Queryable,
  accountId: string,
  roles: readonly Role[] = ['ROLE_SUPER_ADMIN'],
): Promise<string> {
  return (await createTestToken(db, { accountId, roles })).token;
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A minimal HTTP client for one base URL and bearer token. */
export function client(baseUrl: string, token?: string) {
  async function call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const send = () =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    // A pooled keep-alive connection the server closed just as it was reused (late timers on a busy
    // machine) resets; a GET is safe to send once more.
    const response = await send().catch((error: unknown) => {
      if (method === 'GET' && (error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET') return send();
      throw error;
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
  return {
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body: unknown) => call<T>('POST', path, body),
    put: <T = any>(path: string, body: unknown) => call<T>('PUT', path, body),
    delete: <T = any>(path: string) => call<T>('DELETE', path),
    call,
  };
}

export type Client = ReturnType<typeof client>;

/** A small valid event body with a unique title. */
export function eventBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    trcItemDetails: [{ lang: 'nl', title: `Concert ${randomUUID().slice(0, 8)}` }],
    calendar: { singleDates: [{ date: '2027-08-14', when: [{ timestart: '20:15', timeend: '21:30' }] }] },
    ...overrides,
  };
}
