import { describeConversationStoreConformance, type ConversationStoreHarness } from '@papercusp/chat-protocol-testkit/vitest';
import { beforeAll, describe } from 'vitest';
import { runs } from '../../../test-support/property-runs.js';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { grant, isGranted, prepareSchema } from '../test/turn-store-harness.js';
import { createPostgresChatStore, type ChatDatabase } from './index.js';

// Issue 25: the testkit's conversation store suite judges the store's readConversationLog and
// authorizeConversation, on the embedded database and on a real server (where the read races real appends).
const databases = useTestDatabases();

/** The store over one migrated schema, its conversation grant read from the test host's grants table. */
function harness(database: () => ChatDatabase, schema: () => string): ConversationStoreHarness {
  return {
    connect: () =>
      createPostgresChatStore<unknown, string>(database(), {
        schema: schema(),
        authorizeConversation: (query, request) => isGranted(query, schema(), request.conversationId, request.caller),
      }),
    grant: async (conversationId, caller, granted) => {
      if (granted) await grant(database(), schema(), conversationId, caller);
      else await database().query(`DELETE FROM "${schema()}".grants WHERE conversation_id = $1 AND caller = $2`, [conversationId, caller]);
    },
  };
}

describe.each([
  ['PGlite', () => databases.pglite()],
  ['a real Postgres server', () => databases.postgres()],
])('createPostgresChatStore’s conversation reads on %s', (name, database) => {
  let schema = '';
  beforeAll(async () => {
    schema = freshSchema('conversation_conformance');
    await prepareSchema(database(), schema);
  }, 120_000);
  describeConversationStoreConformance(`postgres store on ${name}`, () => harness(database, () => schema), { numRuns: runs(100) });
});
