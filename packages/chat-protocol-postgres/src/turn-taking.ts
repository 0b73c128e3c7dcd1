/**
 * Turn taking for one shared connection (a single node-postgres `Client`,
 * PGlite): units of work run one after another, never interleaved, so one
 * session's transaction never swallows another's statements. It is how one
 * connection is used, not a fence: the store's fences are in the database.
 */

/** Runs units of work one at a time, in the order they were given. */
export interface TurnTaking {
  take<Value>(work: () => Promise<Value>): Promise<Value>;
}

/** A fresh queue: a unit starts when the one before it settled, whether it resolved or rejected. */
export function createTurnTaking(): TurnTaking {
  let last: Promise<unknown> = Promise.resolve();
  return {
    take<Value>(work: () => Promise<Value>): Promise<Value> {
      const next = last.then(work, work);
      last = next.catch(() => undefined);
      return next;
    },
  };
}
