/**
 * `pnpm demo` (issue 17, "The demo") as a person runs it, minus the build the
 * test task already did: on PGlite in a temporary folder, and with
 * DATABASE_URL on a throwaway Postgres server with two host processes. The
 * cluster is stopped in teardown even when a test fails; the demo stops its
 * own hosts.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { runNodeScript, stopAllHostCommands } from './host-command.testing.js';

const DEMO = fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url));
const runDemo = (env: Record<string, string | undefined>) => runNodeScript(DEMO, ['--no-build'], env);

// The lines a person relies on: each scenario happened and its check passed.
const KEY_LINES = [
  /✓ POST \/turns answered 202/,
  /✓ sending the same message again \(a flaky network might\) answered 409 turn-in-flight/,
  /✂ connection cut/,
  /✓ on reconnecting, the host sent the \d+ events written while the client was away/,
  /✓ the reconnect asked for everything after event (\d+), and the host's first frame back was event \d+: nothing resent/,
  /✓ the pieces of text put together are exactly the answer: nothing repeated at the cut/,
  /┌ block: Refund/,
  /\(answered by scripted, model scripted-refund-1\)/,
  /→ the agent asks the app to open \/orders\/1042/,
  /┌ question block: Anything else about order 1042\?/,
  /turn ended: completed \(168 tokens used\)/,
  /⚙ tool issue_refund: succeeded \(refund 1042 issued\)/,
  /POST \/cards\/card_turn_[0-9a-f]{32}_1 answered 200 submitted/,
  /✓ the same answer as a conversation that does not exist/,
  /⚙ tool issue_refund: cancelled/,
  /✓ the cancelled turn's refund finished late and its result is kept: completed/,
  /turn failed: the scripted provider is down \(retry allowed: yes, after 1 s\)/,
  /✓ the replay of 3 turns over HTTP equals the live client's state/,
  /✓ the events stored in the database give exactly the live client's state/,
  /All \d+ checks passed\./,
  // Each word a newcomer meets is explained once, where it first appears (issue 25, "The first run").
  /no language model is involved/,
  /two tenants of the same host/,
  /\(a block is structured content inside the text/,
  /\(a card is a question the agent asks the person/,
  /\(saved state: data the agent keeps for the app/,
];

describe('pnpm demo (issue 17, "The demo")', () => {
  let cluster: PostgresCluster | undefined;
  // A demo still running (a test timed out) gets SIGTERM: it then stops the hosts it started.
  afterEach(() => stopAllHostCommands('SIGTERM'));
  afterAll(() => cluster?.destroy(), 60_000);

  it('on PGlite: every scenario runs live against the host command, every check passes, exit 0, no colour when not a terminal', async () => {
    const result = await runDemo({ DATABASE_URL: undefined });
    expect(result.stderr).toBe('');
    for (const pattern of KEY_LINES) expect(result.stdout).toMatch(pattern);
    expect(result.stdout).not.toMatch(/✗/);
    expect(result.stdout).not.toContain('\x1b[');
    expect(result.code).toBe(0);
  });

  it('with DATABASE_URL: two host processes on one Postgres, the client resumes on the other one, exit 0', async () => {
    cluster = await startPostgresCluster();
    const result = await runDemo({ DATABASE_URL: cluster.url });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/host A listening on http:\/\/127\.0\.0\.1:\d+\n {3}host B listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(result.stdout).toMatch(/✓ the client reconnected once, on its own to host B, from the last event it had read/);
    for (const pattern of KEY_LINES) expect(result.stdout).toMatch(pattern);
    expect(result.stdout).not.toMatch(/✗/);
    expect(result.code).toBe(0);
  });
});
