import { beforeAll } from 'vitest';
import { describeReadmeExample } from '../../../test-support/readme-example.js';
import { useTestDatabases } from '../test/databases.js';

const databases = useTestDatabases();
const packageRoot = new URL('../', import.meta.url);

// The pg example wires a host's own grants table, on the file's throwaway server.
beforeAll(async () => {
  process.env['DATABASE_URL'] = databases.cluster().url;
  await databases.pool().query('CREATE TABLE grants (caller text, conversation_id text, authority jsonb)');
});

describeReadmeExample(packageRoot);
describeReadmeExample(packageRoot, 'on-pg');
