/**
 * How many cases a property runs (issue 14). `pnpm test` runs each property's
 * base count: enough to find what it has found before, quick enough that a
 * package's suite stays short. `pnpm soak` (vitest `--mode soak`, which sets
 * `CHAT_PROTOCOL_SOAK`) runs every property that many times over: the deep
 * campaigns of hostile inputs, interleavings and round trips. Every explicit
 * `numRuns` goes through `runs`; properties left at fast-check's default are
 * multiplied by `config/soak-setup.ts`. Nothing here measures time.
 */

/** The multiple of `pnpm soak` unless `CHAT_PROTOCOL_SOAK` names another (and of `CHAT_PROTOCOL_SOAK=1`): ten times every base count. */
export const DEFAULT_SOAK_MULTIPLE = 10;

// 1 outside a soak, `DEFAULT_SOAK_MULTIPLE` for `CHAT_PROTOCOL_SOAK=1`, fifty
// for `CHAT_PROTOCOL_SOAK=50`; anything but a positive safe integer is no soak.
function soakMultiple(): number {
  const setting = Number(process.env['CHAT_PROTOCOL_SOAK'] ?? Number.NaN);
  if (!Number.isSafeInteger(setting) || setting < 1) return 1;
  return setting === 1 ? DEFAULT_SOAK_MULTIPLE : setting;
}

/** The number of runs of a property whose test-mode count is `base`: `base` in `pnpm test`, `base` times the soak multiple in `pnpm soak`. */
export function runs(base: number): number {
  return base * soakMultiple();
}
