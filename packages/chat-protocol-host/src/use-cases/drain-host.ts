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
 * done; never rejects.
 */
export async function drainHost(runtime: HostRuntime, drainMs: number): Promise<void> {
  runtime.lifecycle.draining = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)));
  await Promise.race([Promise.all([...runtime.runs.values()].map((run) => run.ended)), waited]);
  clearTimeout(timer);
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
  const tails = [...openStreams].filter((stream) => ended.has(stream.turnId)).map((stream) => stream.ended);
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, TAIL_DELIVERY_MS)));
  await Promise.race([Promise.all(tails), grace]);
  clearTimeout(timer);
  streamsEnd.abort();
}
