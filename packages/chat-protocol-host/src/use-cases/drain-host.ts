/**
 * The host's drain (DESIGN §11.2: SIGTERM for the command, `close({ drainMs })`
 * for a library user): stop taking turns, let this process's runs finish
 * within `drainMs`, then give up the ones still running — each interrupted
 * through recovery by its own run id and its tail written here — and end the
 * open streams with a `retry:` hint, so their clients resume on another
 * process. It owns that order; refusing new turns is the start use case's,
 * ending a stream the transport's.
 */
import type { HostRuntime } from './host-runtime.js';
import { interruptTurn } from './interrupt-turn.js';

// How long the streams of the turns a drain ended get to deliver their tails before every open stream is ended.
const TAIL_DELIVERY_MS = 2000;

/** The default `drainMs`: how long running turns get to finish before they are interrupted. */
export const DEFAULT_DRAIN_MS = 10_000;

/**
 * Drains the host. Guarantees: from the first call on, a new turn is refused
 * (`draining`, `503` with `Retry-After`) before anything is claimed or
 * written; runs that end within `drainMs` end as they would have; every run
 * still going then is interrupted (its agent's signal aborted, nothing more
 * written by it) and its tail written, whether or not its lease ran out; once
 * every run of this process ended, the open streams end (a v1 stream with a
 * `retry:` field) and new streams are refused. Resolves when all of that is
 * done, the open streams' last bytes handed to their responses (a stream
 * whose client stopped reading gets 2 s), so closing the server then cuts
 * nothing; never rejects.
 */
export async function drainHost(runtime: HostRuntime, drainMs: number): Promise<void> {
  runtime.lifecycle.draining = true;
  await within(
    [...runtime.runs.values()].map((run) => run.ended),
    drainMs,
  );
  const ended = new Set<string>();
  // A turn whose start was under way when the drain began registers its run late: every run is asked until none is left.
  while (runtime.runs.size > 0) {
    const left = [...runtime.runs.entries()];
    await Promise.all(
      left.map(async ([turnId, run]) => {
        const { caller, conversationId, runId } = run;
        ended.add(turnId);
        if ((await interruptTurn(runtime, { caller, conversationId, turnId, runId })) !== 'interrupted') run.stop('interrupted');
        await run.ended;
      }),
    );
  }
  // The streams of the turns just ended carry their tails to the end on their own (a live frame reaches them after
  // its commit): they get a short while to, then every stream still open ends with the hint to resume elsewhere.
  const { openStreams, streamsEnd } = runtime.lifecycle;
  await within(
    [...openStreams].filter((stream) => ended.has(stream.turnId)).map((stream) => stream.ended),
    TAIL_DELIVERY_MS,
  );
  streamsEnd.abort();
  // Each one writes its `retry:` and ends: the drain resolves once they did, so a server closed right after it cuts
  // no hint off (a client that stopped reading gets as long as a tail).
  await within(
    [...openStreams].map((stream) => stream.ended),
    TAIL_DELIVERY_MS,
  );
}

// Resolves once every one of `ends` did, or after `ms`.
async function within(ends: readonly Promise<void>[], ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.all(ends), grace]);
  clearTimeout(timer);
}
