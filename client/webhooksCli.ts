// `npx content-webhooks …`: the webhook dev loop (trigger, listen). See --help and client/README.md.

import process from 'node:process';
import { parseWebhooksCommand, UsageError } from './webhooks/cli/args.ts';
import { listen } from './webhooks/cli/listen.ts';
import { trigger } from './webhooks/cli/trigger.ts';

export const EXIT = { ok: 0, notAcknowledged: 1, usage: 2 } as const;

export interface WebhooksCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** Resolves when the listener should stop (default: Ctrl-C or SIGTERM). */
  untilStopped?: () => Promise<void>;
}

const untilSignal = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

export async function main(
  argv: readonly string[],
  io: WebhooksCliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  let command;
  try {
    command = parseWebhooksCommand(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`content-webhooks: ${error.message}\nTry: content-webhooks --help\n`);
    return EXIT.usage;
  }
  if (command.kind === 'help') return (void io.stdout.write(`${command.text}\n`), EXIT.ok);
  if (command.kind === 'trigger') {
    const outcome = await trigger(command);
    io.stdout.write(`${outcome.lines.join('\n')}\n`);
    return outcome.ok ? EXIT.ok : EXIT.notAcknowledged;
  }
  let listener;
  try {
    listener = await listen(command, (line) => io.stdout.write(`${line}\n`));
  } catch (error) {
    io.stderr.write(
      `content-webhooks: cannot listen on ${command.host}:${command.port}: ${(error as Error).message}\n`,
    );
    return EXIT.usage;
  }
  io.stdout.write(
    `Listening for webhook deliveries on ${listener.url}${command.forwardTo ? `, forwarding to ${command.forwardTo}` : ''}${command.secret ? '' : ' (no --secret: signatures are not checked)'}. Ctrl-C stops.\n`,
  );
  await (io.untilStopped ?? untilSignal)();
  await listener.close();
  return EXIT.ok;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
