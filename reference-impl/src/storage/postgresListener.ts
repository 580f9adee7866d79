import pg from 'pg';
import type { Listener, NotificationHandlers } from './db.ts';
import { toDbError } from './errors.ts';

export interface PostgresListenerOptions {
  /** The pool's connection settings (connection string, search_path, application name). */
  clientConfig: pg.ClientConfig;
  channel: string;
  handlers: NotificationHandlers;
  /** Wait before each new attempt after the connection dropped. */
  retryMs?: number;
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries). When it drops, the
 * handlers hear `onState(false)` and it connects again every `retryMs` until it listens, then
 * `onState(true)`: whatever was notified in between is lost, and the caller knows.
 */
export async function startPostgresListener(options: PostgresListenerOptions): Promise<Listener> {
  const { channel, handlers, retryMs = 1000 } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel))
    throw new Error(`channel must be a plain lower-case name (received: ${channel})`);
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client(options.clientConfig);
    next.on('error', () => {}); // reported by 'end', below
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw toDbError(error);
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    next.once('end', () => {
      if (closed) return;
      client = undefined;
      handlers.onState?.(false);
      scheduleRetry();
    });
    handlers.onState?.(true);
  };
  const scheduleRetry = () => {
    retry = setTimeout(() => {
      connect().catch(() => {
        if (!closed) scheduleRetry();
      });
    }, retryMs);
    retry.unref();
  };

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
