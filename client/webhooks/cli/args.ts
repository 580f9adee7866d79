// Command line of `content-webhooks` (`npx content-webhooks …`): parsing and validation only.

import { parseArgs } from 'node:util';
import { WEBHOOK_MAX_ITEMS } from '../../../generated/constants.ts';
import { WEBHOOK_EVENT_TYPES } from '../sampleDelivery.ts';

export const SECRET_ENV = 'CONTENT_WEBHOOK_SECRET';
export const TOKEN_ENV = 'CONTENT_TOKEN';
export const DEFAULT_PORT = 4242;

export interface TriggerCommand {
  kind: 'trigger';
  eventType: string;
  forwardTo: string;
  secret: string;
  /** Items in the delivery (1…WEBHOOK_MAX_ITEMS). */
  items: number;
  /** Base of the resourceUri values (default: a placeholder host). */
  resourceBase: string | undefined;
  /** Real items instead of made-up ones: the sandbox's API base URL and a token that reads it. */
  sandbox: { baseUrl: string; token: string } | undefined;
}

export interface ListenCommand {
  kind: 'listen';
  port: number;
  host: string;
  secret: string | undefined;
  forwardTo: string | undefined;
}

export type ParsedWebhooksCommand = { kind: 'help'; text: string } | TriggerCommand | ListenCommand;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const EVENT_NAMES = WEBHOOK_EVENT_TYPES.map((t) => t.name);

export const HELP = `Usage:
  content-webhooks trigger <EventType> --forward-to URL --secret SECRET [--items N]
                           [--sandbox URL --token TOKEN]
  content-webhooks listen [--port N] [--secret SECRET] [--forward-to URL]

A dev loop for webhook receivers.

trigger   Signs a CallbackBody of one event type exactly as the service does
          (X-Service-Timestamp, X-Service-Signature, X-Service-Delivery) and POSTs it now.
          Event types: ${EVENT_NAMES.join(', ')}.
          With --sandbox it is about real items: the token's newest items of that type
          (for a *Deleted event, its deleted ones), with their ids, trcids and resourceUris.
listen    Runs a local receiver that verifies each delivery and prints it (event, trcid,
          resourceUri, signature verdict, delivery id, duplicate or not); with --forward-to
          it passes the delivery on byte for byte and answers with the target's status.

Options:
  --forward-to URL       where to send (trigger: required; listen: optional)
  --secret SECRET        the token's signingSecret (or ${SECRET_ENV})
  --items N              trigger: items in the delivery, 1 to ${WEBHOOK_MAX_ITEMS} (default 1)
  --resource-base URL    trigger: base of the resourceUri values (e.g. http://localhost:3000/api)
  --sandbox URL          trigger: a service's API base URL (e.g. http://127.0.0.1:8080/api)
  --token TOKEN          trigger: a token of it that reads the items (or ${TOKEN_ENV});
                         --secret is then that token's signingSecret
  --port N               listen: port (default ${DEFAULT_PORT})
  --host HOST            listen: interface (default 127.0.0.1)
  -h, --help             this text

Exit codes: 0 ok (trigger: the receiver answered 2xx), 1 trigger: not acknowledged with a 2xx,
or the sandbox gave no item, 2 usage error.`;

function httpUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL (received: ${value})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http(s) URL (received: ${value})`);
  return url.href;
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (received: ${value})`);
  return n;
}

export function parseWebhooksCommand(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedWebhooksCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        'forward-to': { type: 'string' },
        secret: { type: 'string' },
        items: { type: 'string' },
        'resource-base': { type: 'string' },
        sandbox: { type: 'string' },
        token: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') return { kind: 'help', text: HELP };
  const secret = values.secret ?? (env[SECRET_ENV] || undefined);
  if (command === 'trigger') {
    const eventType = rest[0];
    if (eventType === undefined) throw new UsageError(`trigger needs an event type: ${EVENT_NAMES.join(', ')}`);
    if (!EVENT_NAMES.includes(eventType))
      throw new UsageError(`unknown event type ${eventType}; expected one of ${EVENT_NAMES.join(', ')}`);
    if (!values['forward-to']) throw new UsageError('trigger needs --forward-to URL');
    if (!secret) throw new UsageError(`trigger needs --secret (or ${SECRET_ENV})`);
    const token = values.token ?? (env[TOKEN_ENV] || undefined);
    if (values.sandbox !== undefined && values['resource-base'] !== undefined)
      throw new UsageError('--sandbox gives the resourceUri values; leave out --resource-base');
    if (values.sandbox !== undefined && token === undefined)
      throw new UsageError(`--sandbox needs --token (or ${TOKEN_ENV}), a token that reads its items`);
    if (values.sandbox === undefined && values.token !== undefined) throw new UsageError('--token needs --sandbox URL');
    return {
      kind: 'trigger',
      eventType,
      forwardTo: httpUrl(values['forward-to'], '--forward-to'),
      secret,
      items: values.items === undefined ? 1 : integer(values.items, '--items', 1, WEBHOOK_MAX_ITEMS),
      resourceBase: values['resource-base'] && httpUrl(values['resource-base'], '--resource-base').replace(/\/$/, ''),
      sandbox:
        values.sandbox === undefined
          ? undefined
          : { baseUrl: httpUrl(values.sandbox, '--sandbox').replace(/\/$/, ''), token: token! },
    };
  }
  if (command === 'listen') {
    return {
      kind: 'listen',
      port: values.port === undefined ? DEFAULT_PORT : integer(values.port, '--port', 0, 65535),
      host: values.host ?? '127.0.0.1',
      secret,
      forwardTo: values['forward-to'] && httpUrl(values['forward-to'], '--forward-to'),
    };
  }
  throw new UsageError(`unknown command ${command}; expected trigger or listen`);
}
