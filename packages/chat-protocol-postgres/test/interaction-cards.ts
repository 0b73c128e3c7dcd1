/**
 * Cards for the interaction store's rule tests: a fresh schema with its
 * grants, one card opened through the resolver, an answer to it, and a
 * database whose commits a test can hold, kill or lose the answer of.
 */
import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import {
  InteractionResolver,
  type InteractionAuthority,
  type InteractionStore,
  type InteractionValidator,
} from '@papercusp/chat-protocol-interactions';
import { expect } from 'vitest';
import { createPostgresInteractionStore, type ChatDatabase, type FenceLimitOptions } from '../src/index.js';
import { freshSchema } from './databases.js';
import { grant, grantsLookup, prepareInteractionSchema } from './interaction-grants.js';

export const OWNER = 'owner';
export const AUTHORITY: InteractionAuthority = { principalId: 'user_1', tenantId: 'tenant_1', customerId: null, publicOwnerId: null };
const OPENED_AT = '2026-11-30T09:00:00Z';
export const ANSWERED_AT = '2026-11-30T09:10:00Z';

// Refund or replace, as a hand-written Standard Schema.
const validate: InteractionValidator<OpenCardSnapshotV1> = ({ value }) => {
  const optionId = typeof value === 'object' && value !== null ? (value as { readonly optionId?: unknown }).optionId : undefined;
  return optionId === 'refund' || optionId === 'replace' ? { value: { optionId } } : { issues: [{ message: 'not offered' }] };
};

export const resolverOn = (store: InteractionStore<OpenCardSnapshotV1, string>) => new InteractionResolver<string>({ store, validate });

export interface Card {
  readonly schema: string;
  readonly database: ChatDatabase;
  readonly conversationId: string;
  readonly correlationId: string;
  /** The card's store over `database` (default the card's), with `limits` on its fences. */
  readonly store: (database?: ChatDatabase, limits?: FenceLimitOptions) => InteractionStore<OpenCardSnapshotV1, string>;
}

let cards = 0;

/** A fresh schema (or `beside`'s) with `OWNER` granted and one card opened in it. */
export async function openCard(database: ChatDatabase, beside?: Card): Promise<Card> {
  cards += 1;
  const schema = beside?.schema ?? freshSchema('interaction_rules');
  if (beside === undefined) await prepareInteractionSchema(database, schema);
  const conversationId = `conv_${cards}`;
  const correlationId = `card_${cards}`;
  await grant(database, schema, conversationId, OWNER, AUTHORITY);
  const interactionAuthority = grantsLookup(schema);
  const store = (on: ChatDatabase = database, limits: FenceLimitOptions = {}) =>
    createPostgresInteractionStore<string>(on, { schema, interactionAuthority, ...limits });
  const opened = await resolverOn(store()).open({
    caller: OWNER,
    card: {
      correlationId,
      createdAt: OPENED_AT,
      prompt: 'Refund or replacement?',
      presentation: {
        kind: 'radio',
        options: [
          { id: 'refund', label: 'Refund' },
          { id: 'replace', label: 'Replacement' },
        ],
      },
    },
    schema: { id: 'refund-choice', revision: 1 },
    expiresAt: '2026-11-30T09:30:00Z',
    scope: { conversationId, ...AUTHORITY },
    at: OPENED_AT,
  });
  expect(opened).toMatchObject({ ok: true, outcome: 'opened', replayed: false });
  return { schema, database, conversationId, correlationId, store };
}

export const answer = (card: Card, optionId: string) => ({
  conversationId: card.conversationId,
  correlationId: card.correlationId,
  caller: OWNER,
  value: { optionId },
  at: ANSWERED_AT,
});

/** `database` whose sessions send a `COMMIT` that follows a write to the outbox through `around(pid, commit)`. */
export function interceptCommit(
  database: ChatDatabase,
  around: (pid: number, commit: () => Promise<unknown>) => Promise<void>,
): ChatDatabase {
  return {
    ...database,
    query: (text, values) => database.query(text, values),
    listen: (channel, onNotification, onLost) => database.listen(channel, onNotification, onLost),
    session: (work) =>
      database.session(async (connection) => {
        const { rows } = await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const pid = rows[0]?.pid ?? 0;
        let wrote = false;
        return work({
          query: async <Row extends object>(text: string, values?: readonly unknown[]) => {
            if (text.includes('interaction_outbox')) wrote = true;
            if (text !== 'COMMIT' || !wrote) return connection.query<Row>(text, values);
            let result: Awaited<ReturnType<typeof connection.query<Row>>> | undefined;
            await around(pid, async () => {
              result = await connection.query<Row>(text, values);
            });
            if (result === undefined) throw new Error('the commit was not sent');
            return result;
          },
        });
      }),
  };
}

/** Resolves once `count` backends wait on a lock, or after 3 s (a store without the fence never waits: the assertions then say so). */
export async function lockWaiters(database: ChatDatabase, count: number): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    const { rows } = await database.query<{ waiting: number }>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if ((rows[0]?.waiting ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
