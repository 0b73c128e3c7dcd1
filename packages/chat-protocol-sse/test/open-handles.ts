/**
 * Leak checks for the tests that abort mid-stream (issue 16: no open handle):
 * the process's active resources counted by kind, against a quiet baseline.
 */

/** The process's active resources (`process.getActiveResourcesInfo()`), counted by kind. */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/** The kinds with more open now than in `before`: a leak (a closing from an earlier test may only shrink a count). */
export function grownResources(before: Record<string, number>): string[] {
  return Object.entries(activeResources()).flatMap(([name, count]) => (count > (before[name] ?? 0) ? [name] : []));
}

/** The baseline, once the timers an earlier request left (the fetch's own) have run out, so a leaked timer cannot hide behind one. */
export async function quietResources(): Promise<Record<string, number>> {
  for (let round = 0; round < 200 && activeResources()['Timeout'] !== undefined; round += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return activeResources();
}
