// `content-conformance receiver --url URL --secret S`: certifies a webhook receiver black-box.
// Exit codes as the main suite: 0 pass, 1 a MUST failed, 2 could not run (bad arguments).

import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { RECEIVER_CHECKS } from './cases.ts';
import type { ReporterKind } from './run.ts';
import { ACK_LIMIT_MS, runReceiverCert } from './run.ts';

const REPORTERS: readonly ReporterKind[] = ['console', 'junit', 'json', 'html'];

export const RECEIVER_HELP = `content-conformance receiver: certify a webhook receiver

Usage:
  content-conformance receiver --url URL --secret SECRET [options]

Sends signed deliveries (every event type, batched, the largest batch, a duplicate) and forgeries
(tampered body, wrong secret, missing or malformed signature, upper-case hex, a signature over
re-serialised JSON, timestamps 301 s old and ahead) and judges the answers: genuine deliveries
need a 2xx within ${ACK_LIMIT_MS / 1000} s, forgeries anything else, best a 4xx (a 5xx is retried
for 24 hours).

Options:
  --url URL             the receiver's address (http or https)
  --secret SECRET       the token's signingSecret (or CONTENT_WEBHOOK_SECRET)
  --report-dir DIR      where junit.xml, result.json and report.html go (default ./reports/receiver)
  --reporters LIST      any of ${REPORTERS.join(',')} (default: all)
  --only ID[,ID]        run only these checks
  --list                print the checks and their requirement ids, then exit
  --no-color            plain console output
  -h, --help            this text

Exit codes: 0 pass, 1 a MUST requirement failed, 2 could not run.
`;

export class ReceiverArgsError extends Error {}

export async function receiverMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: { stdout: Writable; stderr: Writable },
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        secret: { type: 'string' },
        'report-dir': { type: 'string' },
        reporters: { type: 'string' },
        only: { type: 'string' },
        list: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(`content-conformance receiver: could not run: ${(error as Error).message}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(RECEIVER_HELP);
    return 0;
  }
  if (values.list) {
    for (const c of RECEIVER_CHECKS) io.stdout.write(`${c.id}  [${c.requirements.join(', ')}]  ${c.title}\n`);
    return 0;
  }
  const problems: string[] = [];
  const secret = values.secret ?? env.CONTENT_WEBHOOK_SECRET;
  if (!values.url) problems.push('--url is required');
  else if (!/^https?:\/\//.test(values.url)) problems.push(`--url must be an http(s) URL (received: ${values.url})`);
  if (!secret) problems.push('--secret (or CONTENT_WEBHOOK_SECRET) is required');
  const reporters = (values.reporters ?? REPORTERS.join(',')).split(',').filter(Boolean) as ReporterKind[];
  const unknown = reporters.filter((r) => !REPORTERS.includes(r));
  if (unknown.length > 0) problems.push(`unknown reporter(s) ${unknown.join(', ')}; known: ${REPORTERS.join(', ')}`);
  const only = (values.only ?? '').split(',').filter(Boolean);
  const unknownChecks = only.filter((id) => !RECEIVER_CHECKS.some((c) => c.id === id));
  if (unknownChecks.length > 0) problems.push(`--only names no check: ${unknownChecks.join(', ')} (see --list)`);
  if (problems.length > 0) {
    io.stderr.write(`content-conformance receiver: could not run: ${problems.join('; ')}\n`);
    return 2;
  }
  return runReceiverCert(
    {
      url: values.url!,
      secret: secret!,
      only,
      reportDir: values['report-dir'] ?? 'reports/receiver',
      reporters,
      color: !values['no-color'] && Boolean((io.stdout as { isTTY?: boolean }).isTTY),
    },
    { stdout: io.stdout },
  );
}
