import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from './logger.ts';

function capture(): { lines: () => Record<string, unknown>[]; raw: () => string; stream: { write(s: string): void } } {
  let out = '';
  return {
    stream: {
      write: (s: string) => {
        out += s;
      },
    },
    raw: () => out,
    lines: () =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('when a log object carries tokens, secrets and passwords, then none of them appears in the output [AUTH-001]', () => {
    const out = capture();
    const log = createLogger({ level: 'info', destination: out.stream });
    const secrets = {
      bearer: 'Bearer cst_AAAAsecretbearervalue',
      signing: 'whsec-signing-secret-value',
      password: 'hunter2-password',
      refresh: 'refresh-token-value',
      access: 'access-token-value',
      token: 'cst_plain-token-value',
      cookie: 'sid=cookie-value',
      dsn: 'postgres://app:dbpassword@db/content',
    };
    log.info(
      {
        req: {
          method: 'GET',
          url: '/api/events',
          headers: { authorization: secrets.bearer, cookie: secrets.cookie, 'user-agent': 'vitest' },
        },
        apiToken: { name: 'integration', signingSecret: secrets.signing, token: secrets.token },
        body: {
          username: 'editor',
          password: secrets.password,
          refresh_token: secrets.refresh,
          access_token: secrets.access,
        },
        config: { databaseUrl: secrets.dsn, port: 8080 },
      },
      'request',
    );
    log.warn(
      { signingSecret: secrets.signing, password: secrets.password, token: { value: secrets.token } },
      'top level',
    );

    const raw = out.raw();
    for (const secret of Object.values(secrets)) expect(raw).not.toContain(secret);
    const [first, second] = out.lines();
    expect(first).toMatchObject({
      msg: 'request',
      level: 30,
      req: {
        method: 'GET',
        url: '/api/events',
        headers: { authorization: REDACTED, cookie: REDACTED, 'user-agent': 'vitest' },
      },
      apiToken: { name: 'integration', signingSecret: REDACTED, token: REDACTED },
      body: { username: 'editor', password: REDACTED, refresh_token: REDACTED, access_token: REDACTED },
      config: { databaseUrl: REDACTED, port: 8080 },
    });
    expect(second).toMatchObject({ signingSecret: REDACTED, password: REDACTED, token: REDACTED });
  });

  it('when the level is warn, then info lines are dropped', () => {
    const out = capture();
    const log = createLogger({ level: 'warn', destination: out.stream });
    log.info('quiet');
    log.warn('loud');
    expect(out.lines().map((l) => l.msg)).toEqual(['loud']);
  });
});
