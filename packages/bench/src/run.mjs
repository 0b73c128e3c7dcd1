/**
 * `pnpm bench`: measures the core against JSON.parse and its peers in one run,
 * prints the table and writes RESULTS.md. Plain ESM so it runs without a build
 * step of its own; it reads the core's built `dist` (turbo builds it first).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { applyChatEvent, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol-core';
import { blockContenders, blockRows, measureBlocksBundles, naiveContenders } from './blocks.mjs';
import { measureClientBundle, measureTestkitBundles } from './bundle-size.mjs';
import { clientImportsSection, measureClientImports } from './client-imports.mjs';
import { legacyContenders, legacyRows } from './legacy.mjs';
import { postgresSection, measurePostgresStores } from './postgres.mjs';
import { measureSse, measureSseClientBundle, sseSection } from './sse.mjs';
import { interopSection, measureInteropBundles } from './interop.mjs';
import { agentSection, measureAgent } from './agent.mjs';
import { hostSection, measureHost } from './host.mjs';
import { countRoundTrips, measureRecoveryLatency, recoveryContenders, recoveryRows } from './recovery.mjs';
import { reducerResults } from './reducer.mjs';
import { deltaTurnTexts, POOL_SIZE } from './fixtures.mjs';
import { median, medianRatio, measure } from './harness.mjs';
import { markdownTable } from './markdown-table.mjs';
import { checkParsePools, parseContenders, parseRows } from './parse.mjs';

const TURN_LENGTH = 10_000;
const GOALS = { apply: 1.0, gzippedBytes: 12_000 };

// The turn's envelopes are parsed once, outside the timing: the reducer's cost is measured alone.
const turnEnvelopes = deltaTurnTexts(TURN_LENGTH).map((text) => {
  const result = parseChatEnvelope(text);
  if (!result.ok) throw new Error(`turn fixture refused: ${result.code} ${result.message}`);
  return result.value;
});

function applyWholeTurn() {
  let state = createChatState('conv_01HZX3K8M2');
  for (const envelope of turnEnvelopes) {
    const result = applyChatEvent(state, envelope);
    if (!result.ok || result.outcome !== 'applied') return result;
    state = result.state;
  }
  return { ok: state.turns[0]?.lastSeq === TURN_LENGTH };
}

const isOk = (result) => result.ok === true;

await checkParsePools();
const contenders = [
  ...parseContenders,
  { id: 'apply', run: applyWholeTurn, check: isOk, operationsPerRun: TURN_LENGTH },
  ...blockContenders,
  ...legacyContenders,
  ...recoveryContenders,
];

const loadAtStart = loadavg()[0];
const startedAt = performance.now();
const samples = await measure(contenders);
// The naive re-split takes a large part of a second per run: fewer rounds, each
// beside the incremental splitter so their ratio is taken within a round.
const naiveSamples = await measure([contenders.find((contender) => contender.id === 'blocks/incremental'), ...naiveContenders], {
  samples: 7,
});
const bundle = await measureClientBundle();
const blocksBundles = await measureBlocksBundles();
const testkitBundles = await measureTestkitBundles();
const clientImports = await measureClientImports();
const roundTrips = await countRoundTrips();
const latencyRates = await measureRecoveryLatency(median);
const reducerSection = reducerResults({ median });
// Wall-clock and I/O-bound: after every CPU-timed contender, with its own load reading.
const postgresResults = await measurePostgresStores({ median });
const sseResults = { results: await measureSse({ median }), bundle: await measureSseClientBundle() };
const interopBundles = await measureInteropBundles();
const hostResults = await measureHost();
const agentResults = await measureAgent();
const seconds = (performance.now() - startedAt) / 1000;

const ns = (id) => median(samples.get(id));
const ratio = (id, floorId) => medianRatio(samples.get(id), samples.get(floorId));
const times = (value) => `${value.toFixed(2)}×`;
const nanoseconds = (value) => `${value < 100 ? value.toFixed(1) : Math.round(value)} ns`;
const verdict = (met) => (met ? 'yes' : '**no**');
const bytes = (value) => `${value.toLocaleString('en')} B`;

const COLUMNS = {
  measure: 'measure',
  contender: 'contender',
  input: 'input',
  floor: '× JSON.parse (our envelope)',
  ownFloor: '× JSON.parse (own string)',
  core: '× parseChatEnvelope',
  time: 'median ns/op',
  goal: 'goal',
  met: 'met',
};
const rows = [];

rows.push(...parseRows({ samples, median, medianRatio, times, nanoseconds, verdict }));
const applyRatio = ratio('apply', 'delta/core');
rows.push({
  measure: 'reducer',
  contender: `**applyChatEvent** per delta, ${TURN_LENGTH.toLocaleString('en')}-event turn`,
  input: 'parsed envelopes',
  core: times(applyRatio),
  time: `${nanoseconds(ns('apply'))}/event`,
  goal: `≤ ${times(GOALS.apply)}`,
  met: verdict(applyRatio <= GOALS.apply),
});
rows.push({
  measure: 'client size',
  contender: '**parseChatEnvelope + applyChatEvent + createChatState**, esbuild min + gzip -9',
  input: `${bytes(bundle.gzippedBytes)} gzipped`,
  goal: `≤ ${bytes(GOALS.gzippedBytes)}`,
  met: verdict(bundle.gzippedBytes <= GOALS.gzippedBytes),
});

const table = markdownTable(COLUMNS, rows);

const blocks = blockRows({ main: samples, naive: naiveSamples, bundles: blocksBundles, median, medianRatio });
const BLOCK_COLUMNS = {
  contender: 'contender',
  input: 'input',
  oneShot: '× one `splitTurnText`',
  time: 'median time per read',
  goal: 'goal',
  met: 'met',
};
const blocksTable = markdownTable(BLOCK_COLUMNS, blocks.rows);

const LEGACY_COLUMNS = { contender: 'contender', input: 'input', core: '× parseChatEnvelope (v1 delta text)', time: 'median ns/op' };
const legacyTable = markdownTable(LEGACY_COLUMNS, legacyRows({ samples, median, medianRatio }));

const recovery = recoveryRows({ samples, median, medianRatio, latencyRates, roundTrips });
const RECOVERY_COLUMNS = {
  contender: 'contender',
  zeroLatency: 'zero latency',
  latency: `simulated network (${recovery.latency.transitMilliseconds} ms each way, ${recovery.latency.executionMilliseconds} ms execution)`,
  roundTrips: 'store round trips per effect',
  goal: 'goal',
  met: 'met',
};
const recoveryTable = markdownTable(RECOVERY_COLUMNS, recovery.rows);

const cpuList = cpus();
const cpuModel = cpuList[0]?.model.trim() ?? 'unknown CPU';
const loadNote = loadAtStart > cpuList.length ? ' (more than the cores: other work shared the CPUs, expect noisier ratios)' : '';
const zodShare = Math.round((100 * bundle.zodMinifiedBytes) / bundle.minifiedBytes);
const results = `# Benchmark results

Generated by \`pnpm bench\` on ${new Date().toISOString()}: Node ${process.version}, ${process.platform}/${process.arch},
${cpuList.length} cores (${cpuModel}); one-minute load average at the start ${loadAtStart.toFixed(2)}${loadNote}.
${samples.get('delta/core').length} interleaved rounds, medians of per-round ratios; the run took ${seconds.toFixed(1)} s.
Ratios carry over between machines; the ns/op column is context for this machine only.

${table}

- Each parse row reads the next of ${POOL_SIZE} distinct strings per call (4 conversations of 4 turns of 16 events, so
  conversation and turn ids repeat as on a connection; every event id, seq, timestamp and text differs; one delta in
  eight and most long blocks hold a character past U+00FF). Every goal is stated against \`JSON.parse\` of the same
  strings (the floor). Peers are measured as \`JSON.parse\` plus their own validation, on events that carry the same
  text, id sizes and tool result content, and divided by that same floor. "Own string" divides them by \`JSON.parse\`
  of their own (shorter, less validated) strings instead.
- The AI SDK validates asynchronously (\`safeParseAsync\` behind its lazy schema), as it does when reading a stream;
  its time includes one \`await\` per chunk.
- Client bundle: ${bytes(bundle.minifiedBytes)} minified, ${bytes(bundle.gzippedBytes)} gzipped; zod is
  ${bytes(bundle.zodMinifiedBytes)} (${zodShare} %) of the minified bytes. KB in the goals is 1,000 bytes.

${reducerSection}
## Blocks: reading a streamed turn text (issue #3)

${blocksTable}

- One turn text of 1 MiB (1,048,576 UTF-16 code units) with 2,000 blocks, reports and asks alternating, each
  parsed into its block; the prose between them has inline code in one sentence of eight, a stray \`<\` in one,
  line and paragraph breaks, and a fenced example holding a tag every 50 blocks. The incremental reader gets it in
  ${blocks.deltaCount.toLocaleString('en')} deltas of 16 characters, cut before timing; its time covers every \`push\` and
  the \`end()\`. The three readers are checked to agree before anything is timed.
- The naive reader re-splits all it has received at every delta (\`splitTurnText(textSoFar, { streaming: true })\`):
  it reads about n²/32 characters and parses every block again at each later delta, so its cost is quadratic. It is
  timed on the first 16 and 32 KiB only (${naiveSamples.get('blocks/incremental').length} rounds, each beside the incremental
  reader), and the 32 KiB time is multiplied by (1 MiB / 32 KiB)² = ${blocks.scale.toLocaleString('en')}. Doubling the prefix
  multiplied its time by 2^${blocks.exponent.toFixed(2)} in this run (2^2 is exactly quadratic), so the extrapolation does not
  flatter the splitter.
- Sizes: the blocks entry (every export) is ${bytes(blocksBundles.entry.minifiedBytes)} minified and
  ${bytes(blocksBundles.entry.gzippedBytes)} gzipped with zod left external (its schemas use \`zod/mini\`, which an app bundles once
  for everything). The streaming reader alone is ${bytes(blocksBundles.reader.minifiedBytes)} minified,
  ${bytes(blocksBundles.reader.gzippedBytes)} gzipped, zod ${bytes(blocksBundles.reader.zodMinifiedBytes)} of it.

## Legacy adapter: the cost of a migration (issue #4)

${legacyTable}

- The same \`delta\` event, as a papercup frame for the adapter and as v1 text for \`parseChatEnvelope\`. No goal: the
  adapter runs only while a host migrates, and it buys its guarantee (every upgraded envelope passes core's strict
  encoder, field allowlist included) with a serialize-and-parse round trip per frame.

## Recovery: effects through TurnRecovery on the fake store (issue #5)

${recoveryTable}

- One turn with 1, 8 or 64 effects, started by the worker that then claims and dispatches every effect at once
  (\`Promise.all\`), on \`@papercusp/chat-protocol-testkit\`'s fake store; each run builds its own database. Round trips
  are the store calls (\`read\`, \`compareAndSwap\`, \`admitDispatch\`) per effect from the database's counters; every
  effect also makes one \`authorize\` call (the claim's). With one effect the happy path is claim, admit, complete.
- Zero latency: the component's own cost, ${samples.get('recovery/1').length} interleaved rounds with the rest of the
  harness; each run also builds its database and starts its turn, a cost shared by its effects. Concurrent effects
  of one turn share one versioned record: a worker's writes to it that arrive while a compare-and-swap is out go
  together in the next one (group commit), so the compare-and-swaps per effect fall as concurrency grows.
- Simulated network: every store call waits ${recovery.latency.transitMilliseconds} ms before and after, every execution
  ${recovery.latency.executionMilliseconds} ms; median of ${recovery.latency.rounds} turns. Admission is a per-effect record,
  so the effects of one turn are admitted and run concurrently; what stays serial is one compare-and-swap at a time
  per turn record.

${postgresSection(postgresResults)}

${sseSection(sseResults)}
${interopSection(interopBundles)}
${clientImportsSection(clientImports)}
${hostSection(hostResults)}
${agentSection(agentResults)}
## Testkit: what a browser test bundle pays (issue #7)

- The golden sessions travel inside the testkit's bundle, so a browser or React Native test runner replays them
  without a file system. Bundled for the browser as above, \`listGoldenSessions\` and \`replayGoldenSession\` come to
  ${bytes(testkitBundles.golden.minifiedBytes)} minified and ${bytes(testkitBundles.golden.gzippedBytes)} gzipped, core and zod included
  (zod ${bytes(testkitBundles.golden.zodMinifiedBytes)} of it). The fake stores alone come to ${bytes(testkitBundles.stores.minifiedBytes)}
  minified and ${bytes(testkitBundles.stores.gzippedBytes)} gzipped: a bundle that does not import the sessions drops them. No goal.
`;

writeFileSync(new URL('../RESULTS.md', import.meta.url), results);
console.log(results);
