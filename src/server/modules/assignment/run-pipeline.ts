/**
 * The run's pipeline on its one connection: statements go one after another, each started as
 * soon as the one before ends, while this process computes (docs/decisions/005).
 */

/**
 * Runs statements one after another, each started as soon as the one before ends, while the
 * caller goes on: what it returns is awaited later. A failure is the caller's to see when it
 * awaits (never unhandled meanwhile) and does not stop the statements behind it from being sent
 * (the database refuses them: the transaction is aborted).
 */
export function statementQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    enqueue<T>(statement: () => Promise<T>): Promise<T> {
      const result = tail.then(statement);
      tail = result.catch(() => {});
      return result;
    },
    /** Resolves once every statement queued so far has ended, whatever its outcome. */
    settled: () => tail,
  };
}

/** Lets finished I/O be handled (and the queue send its next statement) before a long computation. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
