/**
 * The fake interaction store: interactions' `InteractionStore` over the same
 * `FakeDatabase` as the turn store, with real semantics — one fence per card
 * holding authority, record and write together, the revision check, the record
 * and its transition written atomically, faults and restarts from the
 * database. Each `createFakeInteractionStore` call is one worker's connection.
 * It also guards the contract: a write that skips a revision or changes a
 * terminal record is refused and recorded as a `violation` in the history.
 */
import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type {
  InteractionAuthority,
  InteractionDecision,
  InteractionSchemaRef,
  InteractionSnapshot,
  InteractionStore,
  InteractionStoreRequest,
  InteractionTransition,
} from '@papercusp/chat-protocol-interactions';
import type { FakeDatabase } from './fake-database.js';

/** Table names the interaction store owns in the database. */
export const FAKE_INTERACTION_TABLES = /* @__PURE__ */ Object.freeze({
  records: 'interaction-records',
  authorities: 'interaction-authorities',
  transitions: 'interaction-transitions',
} as const);

/** A metadata change the host makes through the card's fence: a new schema revision, a new expiry. */
export interface FakeInteractionMetadataChange {
  readonly conversationId: string;
  readonly correlationId: string;
  readonly schema?: InteractionSchemaRef;
  readonly expiresAt?: string;
}

/** One worker's connection to the fake interaction store. Operations: `interaction.transact`, `interaction.read`, `interaction.metadata`; each names its conversation and card (`correlationId`) for a fault's `target`. */
export interface FakeInteractionStore<Card> extends InteractionStore<Card, string> {
  /** Test setup, no round trip: `caller`'s current authority in a conversation; `null` revokes it. */
  setAuthority(conversationId: string, caller: string, authority: InteractionAuthority | null): void;
  /** The host changing a pending card's metadata under its fence; the revision advances. Refused (a throw) on a closed card. */
  changeMetadata(change: FakeInteractionMetadataChange): Promise<void>;
  /** What is committed for a card, without a round trip, fault or fence (for assertions). */
  peek(conversationId: string, correlationId: string): Readonly<Record<string, unknown>> | null;
  /** Every committed transition, in commit order (for assertions). */
  transitions(): readonly InteractionTransition[];
}

const keyOf = (conversationId: string, correlationId: string) => JSON.stringify([conversationId, correlationId]);

type StoredRecord = Readonly<Record<string, unknown>> & { readonly revision: number; readonly status: string };

/**
 * Opens one worker's connection to the interaction store in `database`.
 *
 * Guarantees: `transact` resolves the caller's authority, reads the record,
 * calls `decide` once and writes `next` with its transition, all under the
 * card's fence; `lose-acknowledgement` throws after that commit; a restart
 * makes every call on an older connection throw `restarted`. History entries:
 * `interaction-written` (status, revision, closedBy), `violation`.
 */
export function createFakeInteractionStore<Card = OpenCardSnapshotV1>(database: FakeDatabase): FakeInteractionStore<Card> {
  const connectedIn = database.epoch;
  const records = database.table<StoredRecord>(FAKE_INTERACTION_TABLES.records);
  const authorities = database.table<InteractionAuthority>(FAKE_INTERACTION_TABLES.authorities);
  const transitions = database.table<InteractionTransition>(FAKE_INTERACTION_TABLES.transitions);
  const alive = (operation: string): void => database.assertEpoch(connectedIn, operation);
  const authorityOf = (conversationId: string, caller: string): InteractionAuthority | null =>
    structuredClone(authorities.get(JSON.stringify([conversationId, caller])) ?? null);
  const snapshotOf = (request: InteractionStoreRequest<string>): InteractionSnapshot => ({
    record: structuredClone(records.get(keyOf(request.conversationId, request.correlationId)) ?? null),
    authority: authorityOf(request.conversationId, request.caller),
  });

  return {
    async transact<Result>(
      request: InteractionStoreRequest<string>,
      decide: (snapshot: InteractionSnapshot) => InteractionDecision<Card, Result>,
    ): Promise<Result> {
      alive('interaction.transact');
      const key = keyOf(request.conversationId, request.correlationId);
      return database.transact({
        operation: 'interaction.transact',
        key,
        target: { conversationId: request.conversationId, correlationId: request.correlationId },
        body: async (transaction) => {
          const current = records.get(key) ?? null;
          const decision = decide(snapshotOf(request));
          if (!('next' in decision)) return decision.result;
          // Between the decision and its write: other work may run, the fence still held.
          await transaction.pause('decided');
          const next = decision.next as unknown as StoredRecord;
          const problem =
            next.revision !== (current?.revision ?? 0) + 1
              ? 'the revision must go up by one'
              : current !== null && current.status !== 'pending'
                ? 'a closed card was written again'
                : null;
          if (problem !== null) {
            transaction.record('violation', { problem });
            throw new TypeError(`fake interaction store: ${problem}`);
          }
          records.set(key, structuredClone(next));
          transitions.set(`${key}#${next.revision}`, structuredClone(decision.transition));
          transaction.record('interaction-written', { status: next.status, revision: next.revision, closedBy: next['closedBy'] ?? null });
          return decision.result;
        },
      });
    },
    async read(request) {
      alive('interaction.read');
      return database.call('interaction.read', keyOf(request.conversationId, request.correlationId), () => snapshotOf(request), {
        conversationId: request.conversationId,
        correlationId: request.correlationId,
      });
    },
    setAuthority(conversationId, caller, authority) {
      const key = JSON.stringify([conversationId, caller]);
      if (authority === null) authorities.delete(key);
      else authorities.set(key, structuredClone(authority));
    },
    async changeMetadata(change) {
      alive('interaction.metadata');
      const key = keyOf(change.conversationId, change.correlationId);
      await database.transact({
        operation: 'interaction.metadata',
        key,
        target: { conversationId: change.conversationId, correlationId: change.correlationId },
        body: (transaction) => {
          const current = records.get(key);
          if (current === undefined || current.status !== 'pending') throw new TypeError('fake interaction store: no pending card to change');
          const next = { ...current, ...(change.schema === undefined ? {} : { schema: change.schema }), ...(change.expiresAt === undefined ? {} : { expiresAt: change.expiresAt }), revision: current.revision + 1 };
          records.set(key, next);
          transaction.record('interaction-written', { status: 'pending', revision: next.revision, closedBy: null });
        },
      });
    },
    peek(conversationId, correlationId) {
      return structuredClone(records.get(keyOf(conversationId, correlationId)) ?? null);
    },
    transitions() {
      return [...transitions.values()];
    },
  };
}
