import pg from 'pg';

/** Runs `fn` on a connection of its own to `connectionString`, closed afterwards (schema setup, checks). */
export async function withPostgresClient<T>(
  connectionString: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
