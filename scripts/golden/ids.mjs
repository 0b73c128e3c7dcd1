// @ts-check
// The ids and times of the golden sessions: plausible, reproducible ULID-style
// ids seeded by a name, and RFC 3339 times from epoch milliseconds. No clock,
// no randomness, so every run writes the same bytes. Not the session shapes
// (session.mjs) nor the writer (render-session.mjs).

// ULID-style ids: 10 characters of time, 16 of a generator seeded by the id's name.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID-style id for `ms` whose random part is derived from `seed`: the same
 * arguments give the same id on every run.
 * @param {number} ms
 * @param {string} seed
 * @returns {string}
 */
export function ulid(ms, seed) {
  let time = '';
  for (let rest = ms, index = 0; index < 10; index++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  let random = '';
  for (let index = 0; index < 16; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    random += CROCKFORD[state >>> 27];
  }
  return time + random;
}

/**
 * The RFC 3339 time of `ms` epoch milliseconds, in UTC.
 * @param {number} ms
 * @returns {string}
 */
export const iso = (ms) => new Date(ms).toISOString();

/**
 * The conversation id of the session `name` starting at `start`.
 * @param {string} name
 * @param {number} start
 * @returns {string}
 */
export const conversationIdOf = (name, start) => `conv_${ulid(start - 3_600_000, `${name}/conversation`)}`;

// The first turn keeps the seeds of the single-turn sessions written before
// conversations had several turns, so their ids did not change.
/**
 * The seed of turn `turn` (from 0) of the session `name`.
 * @param {string} name
 * @param {number} turn
 * @returns {string}
 */
export const turnSeed = (name, turn) => (turn === 0 ? `${name}/turn` : `${name}/turn${turn + 1}`);

/**
 * The seed of event `index` (from 0) of turn `turn` of the session `name`.
 * @param {string} name
 * @param {number} turn
 * @param {number} index
 * @returns {string}
 */
export const eventSeed = (name, turn, index) => (turn === 0 ? `${name}/${index + 1}` : `${name}/turn${turn + 1}/${index + 1}`);

/**
 * A tool call id seeded by `name`, carrying the time `ms`.
 * @param {string} name
 * @param {number} ms
 * @returns {string}
 */
export const callId = (name, ms) => `call_${ulid(ms, `${name}/call`)}`;

/**
 * A card correlation id seeded by `name`, carrying the time `ms`.
 * @param {string} name
 * @param {number} ms
 * @returns {string}
 */
export const cardId = (name, ms) => `card_${ulid(ms, `${name}/card`)}`;
