/**
 * A small timing harness: warm up and calibrate each contender, then take
 * interleaved samples (every contender once per round, the order rotated each
 * round) so drift, thermal or GC pressure lands on all of them alike. It reports
 * samples of ns per operation; callers turn them into ratios.
 */
import { performance } from 'node:perf_hooks';

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
  return new Function('run', 'now', body)(run, () => performance.now());
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
  for (let round = 0; round < samples; round += 1) {
    for (let offset = 0; offset < prepared.length; offset += 1) {
      const contender = prepared[(round + offset) % prepared.length];
      collectGarbage();
      const { elapsed, sink } = await contender.batch(contender.count);
      if (!contender.check(sink)) throw new Error(`${contender.id}: the contender refused its own input`);
      const operations = contender.count * (contender.operationsPerRun ?? 1);
      contender.samples.push((elapsed * 1e6) / operations);
    }
  }
  return new Map(prepared.map((contender) => [contender.id, contender.samples]));
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
