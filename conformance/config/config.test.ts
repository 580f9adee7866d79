import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from './config.ts';
import { closest } from './suggest.ts';

/** The ConfigError resolveConfig throws for these arguments (fails the test when it does not throw). */
async function problemsOf(args: string[], cwd = '/'): Promise<ConfigError> {
  try {
    await resolveConfig(args, {}, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`no ConfigError for ${args.join(' ')}`);
}

describe('configuration errors', () => {
  it('when a flag is mistyped, then the error suggests the flag meant, for every unknown flag at once', async () => {
    const error = await problemsOf(['--bse-url', 'http://x/api', '--profle', 'full', '--frobnicate']);
    expect(error.problems).toEqual([
      'unknown option --bse-url (did you mean --base-url?)',
      'unknown option --profle (did you mean --profile?)',
      'unknown option --frobnicate',
    ]);
    expect(error.message).toBe(
      [
        '3 configuration errors:',
        '  - unknown option --bse-url (did you mean --base-url?)',
        '  - unknown option --profle (did you mean --profile?)',
        '  - unknown option --frobnicate',
      ].join('\n'),
    );
  });

  it('when a flag is cut short or given with =, then the one flag it begins is suggested', async () => {
    expect((await problemsOf(['--expected-failure=known.yaml'])).problems).toEqual([
      'unknown option --expected-failure (did you mean --expected-failures?)',
    ]);
    expect((await problemsOf(['--webhook-w', '9000'])).problems).toEqual([
      'unknown option --webhook-w (did you mean --webhook-wait?)',
    ]);
  });

  it('when a flag lacks its value or a switch is given one, then the error says so in plain words', async () => {
    expect((await problemsOf(['--base-url', 'http://x/api', '--token', '--odd-token'])).problems).toEqual([
      '--token needs a value; to give one that starts with -, write --token=VALUE',
    ]);
    expect((await problemsOf(['--base-url'])).problems).toEqual(['--base-url needs a value (see --help)']);
    expect((await problemsOf(['--dry-run=yes'])).problems).toEqual(['--dry-run takes no value (see --help)']);
    const command = await resolveConfig(['--base-url', 'http://x/api', '--token=--odd-token'], {}, '/');
    expect(command.kind === 'run' && command.config.tokens.consumer).toBe('--odd-token');
  });

  it('when a config key is mistyped, then the error names the file, the key and the key meant, without listing all keys', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctf-config-'));
    await writeFile(
      join(dir, 'content-conformance.yaml'),
      'base-url: http://x/api\nrecever-port: 9000\nprofile: full\n',
    );
    const error = await problemsOf([], dir);
    expect(error.problems).toEqual([
      `${join(dir, 'content-conformance.yaml')}: unknown key recever-port (did you mean receiver-port?)`,
    ]);
    expect(error.message).not.toContain('known here');
  });

  it('when several options are wrong, then every problem is reported at once', async () => {
    const error = await problemsOf([
      '--base-url',
      'ftp://x',
      '--profile',
      'ful',
      '--timeout',
      '1s',
      '--reporters',
      'json,htm',
      '--session-user',
      'editor',
    ]);
    expect(error.problems).toEqual([
      '--base-url must be an http or https URL (received: ftp://x)',
      '--profile must be one of consumer, full, certification (received: ful) (did you mean full?)',
      '--session-user and --session-password go together (or CONFORMANCE_SESSION_USER and CONFORMANCE_SESSION_PASSWORD)',
      '--reporters accepts console, junit, json, html (received: htm) (did you mean html?)',
      '--timeout must be a whole number (received: 1s)',
    ]);
  });

  it('when a word is far from every name, then nothing is suggested', () => {
    expect(closest('colour', ['no-color', 'config'])).toBeUndefined();
    expect(closest('tokne', ['token', 'timeout'])).toBe('token');
    expect(closest('seeed', ['seed', 'skip'])).toBe('seed');
  });
});
