import { describeInteractionStoreConformance } from '@papercusp/chat-protocol-testkit/vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { interactionHarness } from '../test/interaction-grants.js';

const databases = useTestDatabases();

// DESIGN §9.4: the testkit's suite is the judge, on the embedded database and on a real server.
// Races at 200 interleavings (the suite's default): on PGlite they cannot race, on the server they do.
describeInteractionStoreConformance('postgres store on PGlite', () => interactionHarness(databases.pglite(), freshSchema('interactions')));
describeInteractionStoreConformance('postgres store on a real server', () =>
  interactionHarness(databases.postgres(), freshSchema('interactions')),
);
