/**
 * The fake interaction store: interactions' `InteractionStore` over the same
 * `FakeDatabase` as the turn store, with real semantics — one fence per card
 * holding authority, record and write together, the revision check, the record
 * and its transition written atomically, faults and restarts from the
 * database. Each `createFakeInteractionStore` call is one worker's connection.
 * It also guards the contract: a write that skips a revision or changes a
 * terminal record is refused and recorded as a `violation` in the history.
 * Its operations read every request once; one they cannot read names no card.
 */
import { type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type {
  InteractionAuthority,
  InteractionDecision,
  InteractionSchemaRef,
  InteractionSnapshot,
  InteractionStore,
  InteractionStoreRequest,
  InteractionTransition,
} from '@papercusp/chat-protocol-interactions';
import { connectFakeDatabase, type FakeDatabase } from './fake-database.js';

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

// A row key; undefined for ids JSON cannot write (a BigInt, a cycle, a Proxy), which name no row.
function keyOf(first: unknown, second: unknown): string | undefined {
  try {
    return JSON.stringify([first, second]);
  } catch {
    return undefined;
  }
}

/** A store request read once: its card's row key, or undefined when it names no card. */
interface ReadRequest {
  readonly caller: unknown;
  readonly conversationId: string;
  readonly correlationId: string;
  readonly key: string;
}

function readStoreRequest(given: InteractionStoreRequest<string>): ReadRequest | undefined {
  const request = readFields(given, ['caller', 'conversationId', 'correlationId']);
  if (request === undefined) return undefined;
  const { caller, conversationId, correlationId } = request;
  if (typeof conversationId !== 'string' || typeof correlationId !== 'string') return undefined;
  const key = keyOf(conversationId, correlationId);
  return key === undefined ? undefined : { caller, conversationId, correlationId, key };
}

// What a request that names no card sees: no record, no authority.
function nothing(): InteractionSnapshot {
  return { record: null, authority: null };
}

type StoredRecord = Readonly<Record<string, unknown>> & { readonly revision: number; readonly status: string };

/**
 * Opens one worker's connection to the interaction store in `database`.
 *
 * Guarantees: `transact` resolves the caller's authority, reads the record,
 * calls `decide` once and writes `next` with its transition, all under the
 * card's fence; `lose-acknowledgement` throws after that commit; a restart
 * makes every call on an older connection throw `restarted`. History entries:
 * `interaction-written` (status, revision, closedBy), `violation`.
 *
 * Hostile requests (issue 12): `transact` and `read` read each request once and
 * never throw on it. A request they cannot read (not an object, a throwing
 * getter, a Proxy, ids that are not strings) names no card: `read` answers no
 * record and no authority, and `transact` calls `decide` with that snapshot,
 * without a round trip. `transact` rejects with `TypeError` (a `violation`) only
 * for a write it cannot make: a skipped revision, a closed card written again,
 * a `next` for a request that names no card, or a record it cannot store. The
 * test-setup methods throw (`changeMetadata` rejects) only `TypeError` for
 * arguments they cannot use. `createFakeInteractionStore` throws `TypeError`
 * when `database` is not a usable `FakeDatabase`; it reads the database once.
 */
export function createFakeInteractionStore<Card = OpenCardSnapshotV1>(database: FakeDatabase): FakeInteractionStore<Card> {
  const connection = connectFakeDatabase(database, 'createFakeInteractionStore', Object.values(FAKE_INTERACTION_TABLES));
  const records = connection.tables.get(FAKE_INTERACTION_TABLES.records) as Map<string, StoredRecord>;
  const authorities = connection.tables.get(FAKE_INTERACTION_TABLES.authorities) as Map<string, InteractionAuthority>;
  const transitions = connection.tables.get(FAKE_INTERACTION_TABLES.transitions) as Map<string, InteractionTransition>;
  const alive = connection.alive;
  const authorityOf = (conversationId: string, caller: unknown): InteractionAuthority | null => {
    const key = keyOf(conversationId, caller);
    return key === undefined ? null : structuredClone(authorities.get(key) ?? null);
  };
  const snapshotOf = (request: ReadRequest): InteractionSnapshot => ({
    record: structuredClone(records.get(request.key) ?? null),
    authority: authorityOf(request.conversationId, request.caller),
  });
  const refuseWrite = (problem: string, record: (type: string, detail: Readonly<Record<string, unknown>>) => void): never => {
    record('violation', { problem });
    throw new TypeError(`fake interaction store: ${problem}`);
  };

  return {
    async transact<Result>(
      given: InteractionStoreRequest<string>,
      decide: (snapshot: InteractionSnapshot) => InteractionDecision<Card, Result>,
    ): Promise<Result> {
      alive('interaction.transact');
      const request = readStoreRequest(given);
      if (request === undefined) {
        const decision = decide(nothing());
        if ('next' in decision)
          refuseWrite('a write for a request that names no card', (type, detail) => connection.record(type, '', detail));
        return decision.result;
      }
      const { key } = request;
      return connection.transact({
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
          if (problem !== null) refuseWrite(problem, (type, detail) => transaction.record(type, detail));
          let copies: { readonly record: StoredRecord; readonly transition: InteractionTransition };
          try {
            copies = { record: structuredClone(next), transition: structuredClone(decision.transition) };
          } catch {
            return refuseWrite('the record or its transition cannot be stored', (type, detail) => transaction.record(type, detail));
          }
          records.set(key, copies.record);
          transitions.set(`${key}#${next.revision}`, copies.transition);
          transaction.record('interaction-written', { status: next.status, revision: next.revision, closedBy: next['closedBy'] ?? null });
          return decision.result;
        },
      });
    },
    async read(given) {
      alive('interaction.read');
      const request = readStoreRequest(given);
      if (request === undefined) return nothing();
      return connection.call('interaction.read', request.key, () => snapshotOf(request), {
        conversationId: request.conversationId,
        correlationId: request.correlationId,
      });
    },
    setAuthority(conversationId, caller, authority) {
      const key = keyOf(conversationId, caller);
      if (typeof conversationId !== 'string' || key === undefined)
        throw new TypeError('FakeInteractionStore.setAuthority: expected a conversation id and a caller JSON can write');
      if (authority === null) {
        authorities.delete(key);
        return;
      }
      let copy: InteractionAuthority;
      try {
        copy = structuredClone(authority);
      } catch {
        throw new TypeError('FakeInteractionStore.setAuthority: the authority cannot be stored');
      }
      authorities.set(key, copy);
    },
    async changeMetadata(given) {
      alive('interaction.metadata');
      const change = readFields(given, ['conversationId', 'correlationId', 'schema', 'expiresAt']);
      const key =
        change === undefined || typeof change.conversationId !== 'string' || typeof change.correlationId !== 'string'
          ? undefined
          : keyOf(change.conversationId, change.correlationId);
      if (change === undefined || key === undefined)
        throw new TypeError('FakeInteractionStore.changeMetadata: expected { conversationId, correlationId, schema?, expiresAt? }');
      await connection.transact({
        operation: 'interaction.metadata',
        key,
        target: { conversationId: change.conversationId, correlationId: change.correlationId },
        body: (transaction) => {
          const current = records.get(key);
          if (current === undefined || current.status !== 'pending')
            throw new TypeError('fake interaction store: no pending card to change');
          const next = {
            ...current,
            ...(change.schema === undefined ? {} : { schema: change.schema }),
            ...(change.expiresAt === undefined ? {} : { expiresAt: change.expiresAt }),
            revision: current.revision + 1,
          };
          records.set(key, next);
          transaction.record('interaction-written', { status: 'pending', revision: next.revision, closedBy: null });
        },
      });
    },
    peek(conversationId, correlationId) {
      const key = keyOf(conversationId, correlationId);
      return key === undefined ? null : structuredClone(records.get(key) ?? null);
    },
    transitions() {
      return [...transitions.values()];
    },
  };
}
