/**
 * The conversation owners a library user plugs into their own host (issue 25,
 * "The command is its own package"): the table, the first-caller claim and the
 * store's three lookups, on PGlite, called directly and through a real store
 * and host. The database is closed in teardown, also when a test fails.
 */
import { PGlite } from '@electric-sql/pglite';
import { createChatHost, createScriptedChatAgent, type ChatHostCaller } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase, type ChatDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimConversationOwner, conversationOwnerLookups, migrateConversationOwners } from './conversation-owners.js';

const caller = (callerId: string, tenantId: string): ChatHostCaller => ({
  callerId,
  principalId: `user_${callerId}`,
  tenantId,
  customerId: null,
  publicOwnerId: null,
});
const ana = caller('ana', 'acme');
// The same caller name in another tenant is another caller.
const anaElsewhere = caller('ana', 'globex');
const bob = caller('bob', 'globex');

let pglite: PGlite;
let database: ChatDatabase;
beforeAll(async () => {
  pglite = await PGlite.create();
  database = pgliteDatabase(pglite);
  expect((await migrateChatStore(database)).ok).toBe(true);
  await migrateConversationOwners(database);
  // A first PGlite start takes seconds on a loaded machine.
}, 120_000);
afterAll(async () => {
  await pglite?.close();
});

// What each of the three lookups answers for `who` on `conversationId`.
async function answers(who: ChatHostCaller, conversationId: string) {
  const lookups = conversationOwnerLookups();
  return {
    conversation: await lookups.authorizeConversation(database, { caller: who, conversationId }),
    dispatch: await lookups.authorizeDispatch(database, { caller: who, conversationId, turnId: 'turn_1', effectId: 'call_1' }),
    interaction: await lookups.interactionAuthority(database, { caller: who, conversationId, correlationId: 'card_1' }),
  };
}
const refused = { conversation: false, dispatch: false, interaction: null };

describe('conversation owners: the table and the first-caller claim', () => {
  it('migrating again is harmless and keeps the owners', async () => {
    await claimConversationOwner(database, { caller: ana, conversationId: 'conv_migrate' });
    await migrateConversationOwners(database);
    expect((await answers(ana, 'conv_migrate')).conversation).toBe(true);
  });

  it('the first claim owns the conversation; a later claim by anyone else changes nothing', async () => {
    expect(await answers(ana, 'conv_first')).toEqual(refused);
    await claimConversationOwner(database, { caller: ana, conversationId: 'conv_first' });
    await claimConversationOwner(database, { caller: bob, conversationId: 'conv_first' });
    await claimConversationOwner(database, { caller: anaElsewhere, conversationId: 'conv_first' });
    expect(await answers(ana, 'conv_first')).toEqual({
      conversation: true,
      dispatch: true,
      interaction: { principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
    });
    expect(await answers(bob, 'conv_first')).toEqual(refused);
    expect(await answers(anaElsewhere, 'conv_first')).toEqual(refused);
  });

  it('a caller or id holding NUL, which Postgres cannot bind, claims nothing and is refused without an error', async () => {
    const nul = caller('ana\0', 'acme');
    await expect(claimConversationOwner(database, { caller: nul, conversationId: 'conv_nul' })).resolves.toBeUndefined();
    await expect(claimConversationOwner(database, { caller: ana, conversationId: 'conv\0nul' })).resolves.toBeUndefined();
    expect(await answers(nul, 'conv_nul')).toEqual(refused);
    expect(await answers(ana, 'conv\0nul')).toEqual(refused);
    expect(await answers(caller('ana', 'ac\0me'), 'conv_first')).toEqual(refused);
    const { rows } = await database.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM chat_protocol_host.conversation_owners WHERE conversation_id IN ('conv_nul')",
    );
    expect(rows).toEqual([{ count: 0 }]);
  });
});

describe('conversation owners through a host of your own (createChatHost with claimConversation)', () => {
  it('the caller whose accepted turn first names a conversation owns it; anyone else gets the not-found answer', async () => {
    const callers: Record<string, ChatHostCaller> = { 'Bearer token-ana': ana, 'Bearer token-bob': bob };
    const host = createChatHost({
      store: createPostgresChatStore(database, conversationOwnerLookups()),
      agent: createScriptedChatAgent(),
      authenticate: (request) => callers[request.headers.get('authorization') ?? ''] ?? null,
      claimConversation: (claim) => claimConversationOwner(database, claim),
    });
    const startTurn = async (token: string) => {
      const clientTurnId = createTurnId();
      const response = await host(
        new Request('http://host.example/v1/conversations/conv_host/turns', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'Idempotency-Key': clientTurnId },
          body: JSON.stringify({ clientTurnId, text: 'fail: the provider is down' }),
        }),
      );
      return { status: response.status, code: ((await response.json()) as { code?: string }).code };
    };
    expect(await startTurn('token-ana')).toEqual({ status: 202, code: undefined });
    expect(await startTurn('token-bob')).toEqual({ status: 404, code: 'not-found' });
    expect(await answers(ana, 'conv_host')).toMatchObject({ conversation: true });
    expect(await answers(bob, 'conv_host')).toEqual(refused);
  });
});
