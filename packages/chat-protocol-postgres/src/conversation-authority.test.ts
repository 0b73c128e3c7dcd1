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
