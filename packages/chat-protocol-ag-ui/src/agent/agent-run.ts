/**
 * One AG-UI run as events the turn's generator pulls: `@ag-ui/client`'s `runAgent` pushes each event to a
 * subscriber, and the generator reads them in order, then how the run ended. It owns the bridge between the two and
 * stopping the run (`abortRun` stops the source, `detachActiveRun` the delivery); what an event means is the
 * decoder's, and what the turn does with it the generator's.
 */
import type { AgUiRunAgentParameters, AgUiRunnableAgent } from './agent-types.js';

// What reading a run gives next: its next event, its end, the error it failed with, or the turn's abort.
type AgUiRunRead =
  | { readonly kind: 'event'; readonly event: unknown }
  | { readonly kind: 'ended' }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'aborted' };

/** A run in progress. */
export interface AgUiRun {
  /** The next event, else how the run ended; `aborted` as soon as the turn's signal is, whatever the run is doing. */
  next(): Promise<AgUiRunRead>;
  /** Stops the run if it has not ended and ignores whatever it delivers after; idempotent. */
  close(): void;
}

/** Starts a run of `runner` with `parameters`; `signal` is the turn's. */
export function startAgUiRun(runner: AgUiRunnableAgent, parameters: AgUiRunAgentParameters, signal: AbortSignal): AgUiRun {
  const events: unknown[] = [];
  let end: Exclude<AgUiRunRead, { kind: 'event' }> | undefined;
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  signal.addEventListener('abort', notify);
  // A runAgent that throws at once (not an AbstractAgent's, which is async) fails the run like one that rejects.
  new Promise<unknown>((resolve) => {
    resolve(
      runner.runAgent(parameters, {
        onEvent: ({ event }) => {
          // Closed before the run could be detached (an AbstractAgent arms detachActiveRun only once its run has
          // initialised): its first event detaches it.
          if (closed) {
            void runner.detachActiveRun();
            return;
          }
          events.push(event);
          notify();
        },
      }),
    );
  }).then(
    () => {
      end ??= { kind: 'ended' };
      notify();
    },
    // Read only until close: after it (the turn cancelled, or its ending already read) an error is the abort's echo.
    (error: unknown) => {
      end ??= { kind: 'failed', error };
      notify();
    },
  );

  return {
    async next() {
      for (;;) {
        if (signal.aborted) return { kind: 'aborted' };
        if (events.length > 0) return { kind: 'event', event: events.shift() };
        if (end !== undefined) return end;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close() {
      if (closed) return;
      closed = true;
      signal.removeEventListener('abort', notify);
      if (end !== undefined) return;
      runner.abortRun();
      void runner.detachActiveRun();
    },
  };
}
