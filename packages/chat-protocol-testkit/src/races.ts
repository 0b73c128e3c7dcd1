/**
 * `@papercusp/chat-protocol-testkit/races`: the scheduled-interleaving helpers
 * the testkit's own race tests and conformance races use, for a host's own
 * race tests. Every store call's request and answer pass through fast-check's
 * scheduler, and a paced act lets real I/O finish between choices, so calls
 * that take several round trips overlap in every order. This entry (and
 * `/vitest`) imports fast-check; the package root never does. Every export is
 * listed by name; `index.test.ts` pins the list.
 */
export { checkRaces, scheduleTransit, settleRace } from './scheduled-transit.js';
export type { CheckRacesOptions, RacePacing } from './scheduled-transit.js';
export { scheduleTurnRecoveryAdapter } from './scheduled-turn-adapter.js';
export { scheduleChatEventLog } from './scheduled-chat-event-log.js';
export { scheduleInteractionStore } from './scheduled-interaction-store.js';
