/**
 * A small timing harness: warm up and calibrate each contender, then take
 * interleaved samples (every contender once per round, in a freshly shuffled
 * order each round) so drift, thermal or GC pressure lands on all of them alike.
 * It reports samples of ns per operation; callers turn them into ratios.
 *
 * Batches are timed in this process's CPU time, not wall time: on a machine
 * shared with other work, a wall-clock batch also counts the time the process
 * waited for a core, which adds about the same to both sides of a ratio and
 * pulls every ratio toward 1 (a loaded run used to flatter the slower side).
 * CPU time counts every thread of the process, so `pnpm bench` runs node with
 * `--single-threaded-gc`: a collector thread still sweeping up after one
 * contender would otherwise bill the next. The order is shuffled, not rotated,
 * because a rotation gives every contender the same predecessor in every round.
 */
import { performance } from 'node:perf_hooks';

/** Milliseconds of CPU time (user and system) this process has used. */
function cpuMilliseconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const collectGarbage = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

// One compiled loop per contender, so each loop's call site sees one function
// and V8 can inline it; a shared loop would be megamorphic and tax the fast ones.
function compileBatch(run, isAsync) {
  const body = isAsync
    ? `return async function batch(count) {
         let sink;
         const start = now();
         for (let index = 0; index < count; index += 1) sink = await run();
         return { elapsed: now() - start, sink };
       };`
    : `return function batch(count) {
         let sink;
         const start = now();
         for (let index = 0; index < count; index += 1) sink = run();
         return { elapsed: now() - start, sink };
       };`;
  return new Function('run', 'now', body)(run, cpuMilliseconds);
}

/**
 * Measures every contender and returns `Map<id, number[]>` of ns/op samples.
 * A contender is `{ id, run, check, isAsync?, operationsPerRun? }`: `check`
 * receives a result and must return true (a contender that fails its own
 * validation is a broken benchmark, not a fast one).
 */
export async function measure(contenders, { samples = 31, batchMilliseconds = 10, warmupMilliseconds = 300 } = {}) {
  const prepared = [];
  for (const contender of contenders) {
    const batch = compileBatch(contender.run, contender.isAsync === true);
    const first = await batch(1);
    if (!contender.check(first.sink)) throw new Error(`${contender.id}: the contender refused its own input`);
    // Warm up while doubling the count until one batch takes the target time.
    let count = 1;
    const warmupEnd = performance.now() + warmupMilliseconds;
    for (;;) {
      const { elapsed } = await batch(count);
      if (elapsed < batchMilliseconds) count *= 2;
      else if (performance.now() >= warmupEnd) break;
    }
    const { elapsed } = await batch(count);
    count = Math.max(1, Math.round((count * batchMilliseconds) / elapsed));
    prepared.push({ ...contender, batch, count, samples: [] });
  }
  const random = seededRandom(samples);
  for (let round = 0; round < samples; round += 1) {
    for (const contender of shuffled(prepared, random)) {
      collectGarbage();
      const { elapsed, sink } = await contender.batch(contender.count);
      if (!contender.check(sink)) throw new Error(`${contender.id}: the contender refused its own input`);
      const operations = contender.count * (contender.operationsPerRun ?? 1);
      contender.samples.push((elapsed * 1e6) / operations);
    }
  }
  return new Map(prepared.map((contender) => [contender.id, contender.samples]));
}

/** A deterministic generator of numbers in [0, 1) (mulberry32): the same seed gives the same run. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A shuffled copy of `items` (Fisher–Yates). */
function shuffled(items, random) {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of per-round ratios `numerator[i] / denominator[i]`: both were taken in the same round. */
export function medianRatio(numerator, denominator) {
  return median(numerator.map((value, round) => value / denominator[round]));
}
