import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ConformanceConfig } from './config.ts';
import { resolveConfig } from './config.ts';
import { DEFAULT_VARIANTS } from '../model/variants.ts';
import { parseConfigFile } from './configFile.ts';

/** A waiver expiry within the 90 days allowed from today. */
const SOON = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
const EXAMPLE = fileURLToPath(new URL('../content-conformance.example.yaml', import.meta.url));

/** A fresh working directory holding `files`. */
async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ctf-config-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

async function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ConformanceConfig> {
  const command = await resolveConfig(args, env, cwd);
  if (command.kind !== 'run') throw new Error('expected a run');
  return command.config;
}

describe('config file', () => {
  it('when content-conformance.yaml is in the working directory, then its options and variants are used', async () => {
    const dir = await folder({
      'content-conformance.yaml': [
        'base-url: http://target.test/api/',
        'profile: full',
        'webhook-wait: 9000',
        'receiver-tls: true',
        'only: [auth.*, HOOK-*]',
        'reporters: json,junit',
        'variants:',
        '  updatePath: collection',
        '  assetFirstPage: 1',
        '  signIn: { userField: login, passwordField: secret }',
      ].join('\n'),
    });
    const c = await run([], {}, dir);
    expect(c).toMatchObject({
      baseUrl: 'http://target.test/api',
      profile: 'full',
      webhook: { waitMs: 9000 },
      receiver: { tls: true },
      only: ['auth.*', 'HOOK-*'],
      reporters: ['json', 'junit'],
      configFile: join(dir, 'content-conformance.yaml'),
      declaredVariants: {
        updatePath: 'collection',
        assetFirstPage: 1,
        signIn: { userField: 'login', passwordField: 'secret' },
      },
    });
  });

  it('when flags, environment and file set the same option, then flag > environment > file > default', async () => {
    const dir = await folder({
      'ci/suite.yaml': 'base-url: http://file.test/api\nprofile: full\nseed: 5\ntimeout: 2000\n',
    });
    const env = { CONFORMANCE_PROFILE: 'certification', CONFORMANCE_SEED: '6' };
    const c = await run(['--config', 'ci/suite.yaml', '--seed', '7'], env, dir);
    expect(c).toMatchObject({ baseUrl: 'http://file.test/api', profile: 'certification', seed: 7, timeoutMs: 2000 });
    expect(c.numRuns).toBe(25);
    const viaEnv = await run([], { CONFORMANCE_CONFIG: join(dir, 'ci/suite.yaml') }, dir);
    expect(viaEnv).toMatchObject({ profile: 'full', seed: 5 });
  });

  it('when a secret names an environment variable, then the variable is used, and CONFORMANCE_* still wins', async () => {
    const dir = await folder({
      'content-conformance.yaml':
        'base-url: http://t.test/api\ntoken: ${MY_TOKEN}\nadmin-token: ${MY_ADMIN}\nsession-user: editor\nsession-password: pw-${MY_PW}\n',
    });
    const c = await run(
      [],
      { MY_TOKEN: 'from-my-token', MY_ADMIN: 'a', MY_PW: 'x1', CONFORMANCE_ADMIN_TOKEN: 'b' },
      dir,
    );
    expect(c.tokens).toEqual({
      consumer: 'from-my-token',
      full: undefined,
      admin: 'b',
      sessionUser: 'editor',
      sessionPassword: 'pw-x1',
    });
    // An unset variable is an error only where the file's value would be used.
    const overridden = await run([], { MY_TOKEN: 't', MY_PW: 'x', CONFORMANCE_ADMIN_TOKEN: 'b' }, dir);
    expect(overridden.tokens.admin).toBe('b');
    await expect(resolveConfig([], { MY_TOKEN: 't', MY_PW: 'x' }, dir)).rejects.toThrow(
      'admin-token names the environment variable MY_ADMIN, which is not set',
    );
  });

  it('when the file names other files, then relative paths are taken from its folder', async () => {
    const dir = await folder({
      'ci/suite.yaml': 'base-url: http://t.test/api\nreport-dir: out\nexpected-failures: known.yaml\n',
      'ci/known.yaml': `- check: limits.size-cap\n  reason: the proxy rewrites it\n  owner: qa\n  expires: ${SOON}\n`,
    });
    const c = await run(['--config', join(dir, 'ci/suite.yaml')], {}, '/');
    expect(c.reportDir).toBe(join(dir, 'ci/out'));
    expect(c.expectedFailures).toEqual([
      { check: 'limits.size-cap', reason: 'the proxy rewrites it', owner: 'qa', expires: SOON },
    ]);
  });

  it('when the file is invalid, then the error names the offending key and value', async () => {
    const fails = async (text: string) => {
      const dir = await folder({ 'content-conformance.yaml': text });
      return resolveConfig(['--base-url', 'http://t.test/api'], {}, dir);
    };
    await expect(fails('base-url: http://x\ntokn: abc\n')).rejects.toThrow(
      /content-conformance\.yaml: unknown key tokn \(did you mean token\?\)$/,
    );
    await expect(fails('variants:\n  updatePath: patch\n')).rejects.toThrow(
      'variants.updatePath must be one of detail, collection (received: "patch")',
    );
    await expect(fails('variants:\n  credentialStatuses: { missing: 401 }\n')).rejects.toThrow(
      'variants.credentialStatuses needs invalid',
    );
    await expect(fails('variants:\n  statusMoves: { archived: put, purged: post }\n')).rejects.toThrow(
      'unknown key variants.statusMoves.purged (known here: rejected, archived, deleted)',
    );
    await expect(fails('receiver-tls: "yes"\n')).rejects.toThrow('receiver-tls must be boolean (received: "yes")');
    await expect(fails('timeout: 1.5\n')).rejects.toThrow('timeout must be integer or string (received: 1.5)');
    await expect(fails('- base-url\n')).rejects.toThrow('(root) must be object');
    await expect(fails('profile: [\n')).rejects.toThrow('is not valid YAML');
    await expect(fails('config: other.yaml\n')).rejects.toThrow('unknown key config');
    // Range and format checks after the schema name the key and the file, not a flag.
    await expect(fails('timeout: 5\n')).rejects.toThrow(
      /timeout \(in .*content-conformance\.yaml\) must be between 100/,
    );
    await expect(fails('profile: everything\n')).rejects.toThrow(/profile \(in .*\) must be one of consumer/);
  });

  it('when --config names a missing file, then it cannot run; without --config a missing default file is fine', async () => {
    const dir = await folder({});
    await expect(resolveConfig(['--config', 'nope.yaml'], {}, dir)).rejects.toThrow('cannot read config file');
    expect((await run(['--base-url', 'http://t.test/api'], {}, dir)).configFile).toBeUndefined();
  });

  it('when the annotated example is read, then it is valid and declares every variant', async () => {
    const env = { ACME_CONSUMER_TOKEN: 'c', ACME_FULL_TOKEN: 'f', ACME_ADMIN_TOKEN: 'a', ACME_EDITOR_PASSWORD: 'p' };
    const parsed = parseConfigFile(await readFile(EXAMPLE, 'utf8'), EXAMPLE, env);
    expect(parsed.unresolved).toEqual({});
    expect(parsed.values).toMatchObject({ token: 'c', 'session-password': 'p', 'webhook-wait': '15000' });
    expect(Object.keys(parsed.variants ?? {}).sort()).toEqual(Object.keys(DEFAULT_VARIANTS).sort());
  });
});
