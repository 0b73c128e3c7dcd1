/**
 * Waking the turn runs that wait on a card when an answer reaches this
 * process. A run arms its wakeup before it reads the card, so an answer that
 * commits between the read and the wait still wakes it (no lost wakeup); an
 * answer stored through another process is seen at the next poll.
 */

/** One armed wait: `woken` settles on a wake, after the poll interval, or on abort; `release` drops it early. */
export interface CardWakeup {
  readonly woken: Promise<void>;
  readonly release: () => void;
}

/** The wakeups of one host process. */
export interface CardWakeups {
  /** Arms a wait on `correlationId`; call before reading the card, await `woken` after a pending read. */
  arm(correlationId: string, signal: AbortSignal): CardWakeup;
  /** Wakes every wait armed on `correlationId`: an answer to it was stored. */
  wake(correlationId: string): void;
}

/**
 * Creates the process's wakeups. Guarantees: a wake after `arm` settles that
 * wait at once, whenever its `woken` is awaited; every wait settles within
 * `pollMs`; a settled or released wait holds no timer or listener.
 */
export function createCardWakeups(pollMs: number): CardWakeups {
  const waiters = new Map<string, Set<() => void>>();
  return {
    arm(correlationId, signal) {
      let settle: () => void = () => undefined;
      const woken = new Promise<void>((resolve) => {
        const armed = waiters.get(correlationId) ?? new Set<() => void>();
        waiters.set(correlationId, armed);
        settle = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', settle);
          armed.delete(settle);
          if (armed.size === 0) waiters.delete(correlationId);
          resolve();
        };
        const timer = setTimeout(settle, pollMs);
        signal.addEventListener('abort', settle, { once: true });
        armed.add(settle);
      });
      return { woken, release: settle };
    },
    wake(correlationId) {
      for (const settle of [...(waiters.get(correlationId) ?? [])]) settle();
    },
  };
}
