import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

// Keys whose values never reach a log line, at any of the first three levels of a log object
// (`token`, `body.token`, `req.headers.authorization`).
const SECRET_KEYS = [
  'authorization',
  'cookie',
  '"set-cookie"',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'signingSecret',
  'signing_secret',
  'sessionSecret',
  'secret',
  'bootstrapAdminToken',
  'databaseUrl',
  'redisUrl',
];

const REDACT_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => {
  const segment = key.startsWith('"') ? `[${key}]` : `.${key}`;
  const top = key.startsWith('"') ? `[${key}]` : key;
  return [top, `*${segment}`, `*.*${segment}`];
});

export const REDACTED = '[REDACTED]';

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout when absent. Tests pass a stream to read the output. */
  destination?: DestinationStream;
}

/** The service's structured logger: JSON lines, secrets redacted. */
export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    level: options.level,
    base: { service: 'content-service' },
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  // Without a destination pino writes synchronously to stdout: no line is lost at a crash.
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}
