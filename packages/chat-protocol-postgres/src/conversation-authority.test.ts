import { describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { grant, isGranted, prepareSchema } from '../test/turn-store-harness.js';
import { createPostgresChatStore, type ChatDatabase } from './index.js';

const databases = useTestDatabases();

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
] as const)('authorizeConversation on %s', (_name, current: () => ChatDatabase) => {
  it('DESIGN §11: the host’s conversation grant is read from the database, so a revocation is seen by the next request', async () => {
    const database = current();
    const schema = freshSchema('conversation_grants');
    await prepareSchema(database, schema);
    await grant(database, schema, 'conv_1', 'user_ana');
    const { authorizeConversation } = createPostgresChatStore<unknown, string>(database, {
      schema,
      authorizeConversation: (query, { caller, conversationId }) => isGranted(query, schema, conversationId, caller),
    });
    expect(await authorizeConversation({ caller: 'user_ana', conversationId: 'conv_1' })).toBe(true);
    expect(await authorizeConversation({ caller: 'user_bob', conversationId: 'conv_1' })).toBe(false);
    await database.query(`DELETE FROM "${schema}".grants`);
    expect(await authorizeConversation({ caller: 'user_ana', conversationId: 'conv_1' })).toBe(false);
  });
});

describe('authorizeConversation fails closed', () => {
  const database = (): ChatDatabase => databases.pglite();

  it('DESIGN §9.1: without a lookup nothing is granted', async () => {
    const { authorizeConversation } = createPostgresChatStore(database());
    expect(await authorizeConversation({ caller: 'user_ana', conversationId: 'conv_1' })).toBe(false);
  });

  it('DESIGN §9.1: a lookup that throws, rejects or answers a truthy non-boolean grants nothing, and never rejects', async () => {
    const lookups = [
      () => {
        throw new Error('grants table is gone');
      },
      () => Promise.reject(new Error('connection lost')),
      () => 'yes' as unknown as boolean,
    ];
    for (const lookup of lookups) {
      const { authorizeConversation } = createPostgresChatStore(database(), { authorizeConversation: lookup });
      await expect(authorizeConversation({ caller: 'user_ana', conversationId: 'conv_1' })).resolves.toBe(false);
    }
  });
});

describe('authorizeConversation reads its request once (issue 25: recovery’s ConversationAuthority)', () => {
  const database = (): ChatDatabase => databases.pglite();

  it('a conversation id core refuses, or a request it cannot read, is false without calling the lookup', async () => {
    const asked: unknown[] = [];
    const { authorizeConversation } = createPostgresChatStore(database(), {
      authorizeConversation: (_query, request) => {
        asked.push(request);
        return true;
      },
    });
    for (const conversationId of ['conv\u0000x', 'conv x', 't'.repeat(257), '', 42]) {
      expect(await authorizeConversation({ caller: 'user_ana', conversationId } as never)).toBe(false);
    }
    expect(await authorizeConversation(null as never)).toBe(false);
    expect(asked).toEqual([]);
  });

  it('the lookup gets a plain copy read once: a getter cannot show it one conversation and the check another', async () => {
    const asked: unknown[] = [];
    const { authorizeConversation } = createPostgresChatStore(database(), {
      authorizeConversation: (_query, request) => {
        asked.push(request);
        return request.conversationId === 'conv_1';
      },
    });
    let reads = 0;
    const request = {
      caller: 'user_ana',
      get conversationId() {
        reads += 1;
        return reads === 1 ? 'conv_1' : 'conv\u0000x';
      },
    };
    expect(await authorizeConversation(request)).toBe(true);
    expect([reads, asked]).toEqual([1, [{ caller: 'user_ana', conversationId: 'conv_1' }]]);
  });
});
