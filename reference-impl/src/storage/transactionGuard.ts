import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Notices a Db being used from inside its own transaction callback (instead of the `tx` handle):
 * on PGlite that waits forever for itself; on PostgreSQL it silently runs outside the transaction.
 * The state is cleared when the transaction ends, so work merely started inside one (a promise
 * that outlives it) may use the Db afterwards.
 */
export class TransactionGuard {
  readonly #context = new AsyncLocalStorage<{ open: boolean }>();

  assertOutside(operation: string): void {
    if (this.#context.getStore()?.open === true) {
      throw new Error(
        `db.${operation}() called inside db.transaction(): use the transaction handle passed to the callback`,
      );
    }
  }

  async inside<T>(fn: () => Promise<T>): Promise<T> {
    const state = { open: true };
    try {
      return await this.#context.run(state, fn);
    } finally {
      state.open = false;
    }
  }
}

const DML = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** `affectedRows` only for statements that change rows, from the statement's own command tag. */
export function affectedRowsOf(
  command: string | null | undefined,
  rowCount: number | null | undefined,
): number | undefined {
  return command !== undefined && command !== null && DML.has(command) && typeof rowCount === 'number'
    ? rowCount
    : undefined;
}
