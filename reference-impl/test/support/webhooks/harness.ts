// Test wiring for webhook tests: an app on a random port whose item writes go through the real
// outbox, the delivery services (started by the test), a log capture, and a way to write items
// straight into storage so the tests need no item routes.
import { randomUUID } from 'node:crypto';
import { formatErrors } from '../../../../spec/index.ts';
import { loadConfig } from '../../../src/config.ts';
import type { EntityType } from '../../../src/domain/entityRules.ts';
import { createLogger, type Logger } from '../../../src/logger.ts';
import type { Db } from '../../../src/storage/db.ts';
import { insertItem } from '../../../src/storage/items/insertItem.ts';
import { specSchema } from '../items/responseSchemas.ts';
import { startTestApp, type TestApp } from '../testApp.ts';
import type { ItemChange, ItemChangeRecorder } from '../../../src/webhooks/itemChange.ts';
import { createWebhookServices, type WebhookServices, type WebhookServicesDeps } from '../../../src/webhooks/worker.ts';

export const TEST_WEBHOOK_ENV = {
  ALLOW_INSECURE_CALLBACKS: 'true',
  // A retry after 50 ms and the last attempt 2 s after the first: room for slow attempts on a busy machine.
  WEBHOOK_RETRY_SCHEDULE: '50ms,2s',
  WEBHOOK_TIMEOUT: '300ms',
  RATE_LIMIT_ENABLED: 'false',
} as const;

export interface LogCapture {
  logger: Logger;
  /** Everything logged so far, as written. */
  text(): string;
}

export function captureLogs(): LogCapture {
  let out = '';
  return {
    logger: createLogger({
      level: 'debug',
      destination: {
        write: (s: string) => {
          out += s;
        },
      },
    }),
    text: () => out,
  };
}

export interface WebhookHarness {
  app: TestApp;
  /** The delivery services' clock: real time plus `offsetMs` (tests move it to get fresh timestamps). */
  clock: { offsetMs: number; now(): number };
  logs: LogCapture;
  /** The current services; `restart()` replaces them. */
  services: WebhookServices;
  /** New services (a new worker) on the same Db, as after a process restart; not started. */
  replaceServices(overrides?: WebhookServicesDeps['worker']): Promise<WebhookServices>;
  close(): Promise<void>;
}

/** An app whose recordItemChange is the real outbox of `services`. The worker is NOT started. */
export async function startWebhookHarness(
  db: Db,
  options: { env?: Record<string, string>; worker?: WebhookServicesDeps['worker'] } = {},
): Promise<WebhookHarness> {
  const logs = captureLogs();
  let services: WebhookServices | undefined;
  const recordItemChange: ItemChangeRecorder = (tx, change) => services!.recordItemChange(tx, change);
  const env = { ...TEST_WEBHOOK_ENV, ...options.env };
  const app = await startTestApp(db, { env, deps: { logger: logs.logger, recordItemChange } });
  // resourceUri values must name the app's real port, known only now.
  const config = loadConfig({
    ...env,
    SESSION_SECRET: 'x'.repeat(40),
    LOG_LEVEL: 'debug',
    PUBLIC_BASE_URL: app.baseUrl,
  });
  const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };
  const make = (worker: WebhookServicesDeps['worker']) =>
    createWebhookServices({ db, config, logger: logs.logger, now: clock.now, worker: { pollMs: 20, ...worker } });
  services = make(options.worker);
  return {
    app,
    logs,
    clock,
    get services() {
      return services!;
    },
    async replaceServices(overrides) {
      await services!.worker.stop();
      services = make({ ...options.worker, ...overrides });
      return services;
    },
    async close() {
      await services!.worker.stop({ deadlineMs: 1000 });
      await app.close();
    },
  };
}

/** Writes an item and its outbox event in one transaction, as the item routes do. */
export async function writeItem(
  db: Db,
  record: ItemChangeRecorder,
  params: { userorganisation: string; entitytype?: EntityType; id?: string; action?: ItemChange['action'] },
): Promise<{ id: string; trcid: string }> {
  const entitytype = params.entitytype ?? 'EVENEMENT';
  return db.transaction(async (tx) => {
    const trcid = `trc-${randomUUID()}`;
    const item =
      params.id === undefined
        ? await insertItem(tx, {
            entitytype,
            trcid,
            wfstatus: 'approved',
            userorganisation: params.userorganisation,
            externalId: null,
            title: null,
            slug: null,
            doc: {},
          })
        : { id: params.id, trcid };
    await record(tx, {
      itemId: item.id,
      trcid: item.trcid,
      entitytype,
      userorganisation: params.userorganisation,
      action: params.action ?? 'UPDATED',
    });
    return { id: item.id, trcid: item.trcid };
  });
}

export { waitFor } from '../waitFor.ts';

/** Validates a webhook body against the spec's CallbackBody; null when valid, else the errors. */
export function createCallbackBodyValidator(): (body: unknown) => string | null {
  const validate = specSchema('/components/schemas/CallbackBody');
  return (body) => (validate(body) ? null : formatErrors(validate));
}

/** A small JSON client for the API with a bearer token. */
export function api(baseUrl: string, token?: string) {
  async function call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; body: any; text: string }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: text === '' ? undefined : JSON.parse(text),
    };
  }
  return {
    call,
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    put: (path: string, body?: unknown) => call('PUT', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}
