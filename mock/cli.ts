// `content-mock` (in the repository: `npm run mock -- [options]`): Prism on the bundled spec behind
// the mock's front door (front.ts), until Ctrl+C. Its own options; Prism's go after `--`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startFront } from './front.ts';
import { startPrism } from './start.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
const DEFAULT_PORT = 4010;
const DEFAULT_HOST = '127.0.0.1';

export const HELP = `Usage: content-mock [options] [-- <Prism options>]

A mock of the Content Service interface: Prism 5.16 answering every operation with the examples
of the spec, at http://<host>:<port>/api (the interface's base URL) and without /api.

Options:
  -p, --port <n>    Port to listen on (default: $PORT, else ${DEFAULT_PORT})
  -h, --host <ip>   Address to listen on (default: ${DEFAULT_HOST})
  -d, --dynamic     Bodies generated from the schemas instead of the examples
      --errors      An answer that breaks its own schema becomes a 500
      --help        This text
      --version     The mock's version and Prism's

Pick another answer per request with the Prefer header: Prefer: code=404, Prefer: example=<name>,
Prefer: dynamic=true. Anything after -- goes to \`prism mock\` as it is (e.g. -- -v debug).
Exit codes: 0 stopped, 1 Prism failed, 2 bad usage.`;

export type MockCommand =
  { kind: 'help' } | { kind: 'version' } | { kind: 'run'; port: number; host: string; prismArgs: string[] };

export class UsageError extends Error {}

/** Reads the command line (and PORT); throws UsageError with what was wrong. */
export function parseMockArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): MockCommand {
  const split = argv.indexOf('--');
  const own = split < 0 ? [...argv] : argv.slice(0, split);
  const passed = split < 0 ? [] : argv.slice(split + 1);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: own,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string', short: 'h' },
        dynamic: { type: 'boolean', short: 'd' },
        errors: { type: 'boolean' },
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (content-mock --help lists the options)`);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const rawPort = (values.port as string | undefined) ?? env.PORT ?? String(DEFAULT_PORT);
  const port = Number(rawPort);
  if (!/^[0-9]+$/.test(rawPort) || port < 1 || port > 65535)
    throw new UsageError(`--port must be a TCP port number, 1 to 65535 (received: ${rawPort})`);
  const host = (values.host as string | undefined) ?? DEFAULT_HOST;
  if (net.isIP(host) === 0 && host !== 'localhost')
    throw new UsageError(`--host must be an IP address or localhost (received: ${host})`);
  const prismArgs = [...(values.dynamic ? ['-d'] : []), ...(values.errors ? ['--errors'] : []), ...passed];
  return { kind: 'run', port, host, prismArgs };
}

export function versionText(): string {
  const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  const prismMain = createRequire(import.meta.url).resolve('@stoplight/prism-cli');
  const prism = JSON.parse(readFileSync(path.join(path.dirname(prismMain), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return `content-mock ${own.version} (Prism ${prism.version})`;
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The command: returns its exit code once the mock has stopped (or could not start). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  let command: MockCommand;
  try {
    command = parseMockArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`content-mock: ${error.message}\n`);
    return EXIT.usage;
  }
  if (command.kind === 'help') return (void process.stdout.write(`${HELP}\n`), EXIT.ok);
  if (command.kind === 'version') return (void process.stdout.write(`${versionText()}\n`), EXIT.ok);

  const inner = { host: '127.0.0.1', port: await freePort('127.0.0.1') };
  let prism: Awaited<ReturnType<typeof startPrism>>;
  try {
    prism = await startPrism({ ...inner, args: command.prismArgs });
  } catch (error) {
    process.stderr.write(`content-mock: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  let front: Awaited<ReturnType<typeof startFront>>;
  try {
    front = await startFront({ port: command.port, host: command.host, prism: inner });
  } catch (error) {
    await prism.stop();
    process.stderr.write(
      `content-mock: cannot listen on ${command.host}:${command.port}: ${(error as Error).message}\n`,
    );
    return EXIT.failed;
  }
  process.stdout.write(
    `Mock ready at ${front.url}/api (also without /api) after ${prism.firstAnswerMs} ms. Ctrl+C stops it.\n`,
  );
  // Prism's request log from here on, naming the address the user called, not Prism's own.
  const relay = (out: NodeJS.WriteStream) => (chunk: Buffer) =>
    out.write(chunk.toString().replaceAll(prism.url, front.url));
  prism.child.stdout?.on('data', relay(process.stdout));
  prism.child.stderr?.on('data', relay(process.stderr));
  return new Promise<number>((resolve) => {
    const stop = (code: number) => () => {
      void Promise.all([front.close(), prism.stop()]).then(() => resolve(code));
    };
    process.once('SIGINT', stop(EXIT.ok));
    process.once('SIGTERM', stop(EXIT.ok));
    prism.child.once('exit', (code) => stop(code === 0 || code === null ? EXIT.ok : EXIT.failed)());
  });
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
