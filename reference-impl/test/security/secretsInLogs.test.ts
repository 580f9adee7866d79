import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSummary, HOUR, loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startService, type RunningService } from '../../src/server.ts';
import { waitFor } from '../support/webhooks/harness.ts';
import { startReceiver, type Receiver } from '../support/webhooks/receiver.ts';
import { rawClient, type RawAnswer, type RawClient } from '../support/security/rawHttp.ts';

// Secrets never reach the logs (OWASP API8; DEC-AUTH-006, DEC-HOOK-001): the whole service, as
// `npm start` runs it (demo seed, bootstrap token, webhook worker), logs at trace level into a
// captured stream while a scenario signs in, refreshes, reuses a refresh token, signs out, fails
// to authenticate in every way, creates tokens with webhooks, rotates secrets, delivers webhooks
// (one failing first) and is refused an SSRF target. Afterwards no token value, signing secret,
// password, access or refresh token, configured key, or bearer a client sent is in the output,
// whole or in part.

const random = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

describe('secrets never appear in the logs', () => {
  let out = '';
  let service: RunningService;
  let http: RawClient;
  let receiver: Receiver;
  let offsetMs = 0;
  /** Every secret the scenario saw or made. */
  const secrets = new Map<string, string>();
  const keep = (what: string, value: unknown) => {
    if (typeof value === 'string' && value.length > 0) secrets.set(value, what);
  };
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'trace',
    SEED_DEMO_DATA: 'true',
    BOOTSTRAP_ADMIN_TOKEN: random('bootstrap-'),
    SESSION_SECRET: random('session-secret-'),
    WEBHOOK_SECRET_KEY: random('webhook-key-'),
    ALLOW_INSECURE_CALLBACKS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '50ms,2s',
    WEBHOOK_TIMEOUT: '500ms',
    RATE_LIMIT_ENABLED: 'true',
  };

  beforeAll(async () => {
    const logger = createLogger({
      level: 'trace',
      destination: {
        write: (line: string) => {
          out += line;
        },
      },
    });
    const config = loadConfig(env);
    // What main.ts logs before it starts the service.
    for (const warning of config.warnings) logger.warn(warning);
    logger.info({ config: configSummary(config) }, 'starting');
    service = await startService(config, logger, { now: () => Date.now() + offsetMs });
    http = rawClient(service.baseUrl);
    receiver = await startReceiver();
    for (const name of ['BOOTSTRAP_ADMIN_TOKEN', 'SESSION_SECRET', 'WEBHOOK_SECRET_KEY'] as const)
      keep(name, env[name]);
    for (const token of service.seed!.tokens) keep(`demo token ${token.label}`, token.token);
    for (const user of service.seed!.users) keep(`password of ${user.username}`, user.password);
  });
  afterAll(async () => {
    await http?.close();
    await receiver?.close();
    await service?.stop();
  });

  async function call(method: string, path: string, bearer: string | undefined, body?: unknown): Promise<RawAnswer> {
    const headers: Record<string, string> = bearer === undefined ? {} : { authorization: `Bearer ${bearer}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await http.send({
      method,
      path,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const field of ['token', 'signingSecret', 'access_token', 'refresh_token'] as const)
      keep(field, (answer.json as Record<string, unknown> | undefined)?.[field]);
    return answer;
  }

  it('when a scenario of sign-ins, token administration, webhook deliveries and refused requests runs with trace logging, then no secret is in the output', async () => {
    const admin = service.seed!.users.find((u) => u.roles.includes('ROLE_ADMIN') && u.accountId === 'amsterdam')!;
    const root = env.BOOTSTRAP_ADMIN_TOKEN;

    // Sessions: sign in, refresh, reuse the spent refresh token (revokes the session), sign in again, sign out.
    const first = (
      await call('POST', '/auth/signin', undefined, { username: admin.username, password: admin.password })
    ).json as { access_token: string; refresh_token: string };
    expect(first.access_token).toBeDefined();
    const second = (await call('POST', '/auth/refresh', undefined, { refresh_token: first.refresh_token })).json as {
      access_token: string;
    };
    expect(second.access_token).toBeDefined();
    expect((await call('POST', '/auth/refresh', undefined, { refresh_token: first.refresh_token })).status).toBe(401);
    const third = (
      await call('POST', '/auth/signin', undefined, { username: admin.username, password: admin.password })
    ).json as { access_token: string };
    expect((await call('GET', '/events', third.access_token)).status).toBe(200);

    // Refused: wrong password, unknown user, made-up and malformed bearers, a session after logout.
    const wrongPassword = random('wrong-password-');
    keep('a wrong password', wrongPassword);
    expect(
      (await call('POST', '/auth/signin', undefined, { username: admin.username, password: wrongPassword })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/auth/signin', undefined, { username: 'nobody@example.test', password: wrongPassword }))
        .status,
    ).toBe(401);
    for (const bearer of [random('cst_'), `${random('eyJ')}.${random('e')}.${random('s')}`, random('')]) {
      keep('a bearer a client made up', bearer);
      expect((await call('GET', '/events', bearer)).status).toBe(401);
    }
    expect((await call('POST', '/auth/logout', third.access_token)).status).toBe(200);
    expect((await call('GET', '/events', third.access_token)).status).toBe(401);

    // Tokens with webhooks: created with a secret, one given a webhook later, one rotated, one deleted.
    let failFirst = true;
    receiver.handle((_req, res) => {
      res.writeHead(failFirst ? 500 : 204).end();
      failFirst = false;
    });
    const accounts = '/accounts/amsterdam/tokens';
    const hooked = (
      await call('POST', accounts, root, {
        name: 'hooked',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: `${receiver.url}/hook`,
        canWrite: true,
      })
    ).json as { id: string; token: string; signingSecret: string };
    expect(hooked.signingSecret).toBeDefined();
    const later = (await call('POST', accounts, root, { name: 'later', roles: ['ROLE_ADMIN'], canWrite: true }))
      .json as {
      id: string;
      token: string;
    };
    expect((await call('PUT', `${accounts}/${later.id}`, root, { callBackUrl: `${receiver.url}/later` })).status).toBe(
      200,
    );
    expect((await call('POST', `${accounts}/${hooked.id}/rotate-secret`, root)).status).toBe(200);
    expect(
      (await call('PUT', `${accounts}/${later.id}`, root, { callBackUrl: 'https://169.254.169.254/latest/meta-data/' }))
        .status,
    ).toBe(400);
    expect((await call('GET', `${accounts}/${hooked.id}/deliveries`, later.token)).status).toBe(200);

    // A write that both webhooks hear; the first attempt to each fails with 500, the retry delivers.
    const write = await call('POST', '/events', hooked.token, {
      trcItemDetails: [{ lang: 'nl', title: 'Geheim concert' }],
      userorganisation: 'amsterdam-marketing',
    });
    expect(write.status).toBe(201);
    await waitFor('the webhook retries', () => receiver.requests.length >= 3, 15_000);
    expect(out).toContain('webhook delivered');

    // A deleted token and an expired session are refused too.
    expect((await call('DELETE', `${accounts}/${later.id}`, root)).status).toBe(204);
    expect((await call('GET', '/events', later.token)).status).toBe(401);
    const fresh = (
      await call('POST', '/auth/signin', undefined, { username: admin.username, password: admin.password })
    ).json as { access_token: string };
    expect((await call('GET', '/events', fresh.access_token)).status).toBe(200);
    offsetMs = 2 * HOUR;
    try {
      expect((await call('GET', '/events', fresh.access_token)).status).toBe(401);
    } finally {
      offsetMs = 0;
    }

    expect(secrets.size).toBeGreaterThan(20);
    // The capture saw the service's lines at every level down to debug: a fair test of absence.
    for (const line of ['starting', 'storage migrated', 'webhook attempt failed; will retry', 'webhook delivered'])
      expect(out).toContain(`"msg":"${line}"`);
    const leaks = [...secrets]
      .filter(([secret]) => out.includes(secret) || out.includes(secret.slice(-16)))
      .map(([, what]) => what);
    expect(leaks).toEqual([]);
  });
});
