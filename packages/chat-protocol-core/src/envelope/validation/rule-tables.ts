/**
 * The validator's rule tables, built once for each text mode: the envelope
 * frame's table here, the card's and the events' from `card-tables.ts` and
 * `event-tables.ts`, on the checks of `value-checks.ts`. It owns which tables
 * exist and how they are built; the rules of the card's and the events'
 * fields are their modules'.
 */
import { isSeq } from '../../primitives/primitives.js';
import { cardTables, type CardTables } from './card-tables.js';
import { eventTables, type EventTables } from './event-tables.js';
import { dispatched, required, rules, when, type Rules } from './rules.js';
import { id, timestamp } from './value-checks.js';

/**
 * Every strict object of the envelope the validator knows, by name: the
 * envelope frame, each event type, the card and its parts, each presentation
 * kind, each block kind and a source. `contract-fields.test.ts` compares their
 * keys with the schemas' and the test generators'.
 */
export interface RuleTables extends CardTables, EventTables {
  readonly envelope: Rules;
}

/**
 * Builds the rule tables. With `screened`, the strings they see come from a
 * JSON text {@link isScreenedJsonText} passed, so none can hold a control
 * character and text checks only ask for well-formed Unicode; every other rule,
 * message and path is the same. The tables are built in a function called at
 * load and marked pure, so a bundle that never validates an envelope (a client
 * importing only isCleanText, say) drops them entirely.
 */
function buildRuleTables(screened: boolean): RuleTables {
  const cards = cardTables(screened);
  const envelope = rules<{ [Key in 'schemaVersion' | 'conversationId' | 'turnId' | 'eventId' | 'seq' | 'occurredAt' | 'event']: unknown }>({
    schemaVersion: dispatched,
    conversationId: required(id),
    turnId: required(id),
    eventId: required(id),
    seq: required(when(isSeq, 'expected a positive safe integer')),
    occurredAt: required(timestamp),
    event: dispatched,
  });
  return { envelope, ...cards, ...eventTables(screened, cards.cardCheck) };
}

/** The rule tables for any parsed JSON value. */
export const RULE_TABLES: RuleTables = /* @__PURE__ */ buildRuleTables(false);
/** The same rules for values parsed from a screened text (see `isScreenedJsonText`). */
export const SCREENED_RULE_TABLES: RuleTables = /* @__PURE__ */ buildRuleTables(true);
