import { describeInteractionStoreConformance } from '@papercusp/chat-protocol-testkit/vitest';
import { runs } from '../../../test-support/property-runs.js';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { interactionHarness } from '../test/interaction-grants.js';

const databases = useTestDatabases();

// DESIGN §9.4: the testkit's suite is the judge, on the embedded database and on a real server. Races at
// 200 interleavings (the suite's default; more in `pnpm soak`): PGlite cannot race, the server does. Dropping
// both the row lock and the outbox's unique (card, revision) fails both races on the server.
const options = { numRuns: runs(200) };
describeInteractionStoreConformance(
  'postgres store on PGlite',
  () => interactionHarness(databases.pglite(), freshSchema('interactions')),
  options,
);
describeInteractionStoreConformance(
  'postgres store on a real server',
  () => interactionHarness(databases.postgres(), freshSchema('interactions')),
  options,
);
