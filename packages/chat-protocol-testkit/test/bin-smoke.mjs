// The built package end to end, after the build (the package's `lint` runs it):
// `bin/chat-protocol.js` imports the built `dist/cli.js`, which the vitest
// suites never load, and must pass main's exit code on to the shell; the
// golden sessions must be in the built bundles and in golden/.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const expectations = [
  { capture: 'captures/clean.sse', status: 0, firstLine: 'captures/clean.sse: ok, 12 frames, 2 turns, no violations' },
  { capture: 'captures/violations.sse', status: 1, firstLine: 'captures/violations.sse: 11 violations in 15 frames, 2 turns' },
];
for (const { capture, status, firstLine } of expectations) {
  const run = spawnSync(process.execPath, ['bin/chat-protocol.js', 'verify', capture], { cwd: root, encoding: 'utf8' });
  const shown = run.stdout.split('\n')[0];
  if (run.status !== status || shown !== firstLine || run.stderr !== '') {
    console.error(
      `bin smoke: ${capture}: expected exit ${status} and "${firstLine}", got exit ${run.status} and "${shown}"\n${run.stderr}`,
    );
    process.exit(1);
  }
  console.log(`bin smoke: chat-protocol verify ${capture} exits ${status}`);
}

// The golden sessions as the package ships them: bundled into the ESM and CJS
// builds (each replays to its pinned state) and copied to golden/ as files.
const builds = {
  esm: await import(new URL('../dist/index.js', import.meta.url).href),
  cjs: createRequire(import.meta.url)('../dist/index.cjs'),
};
const fixtures = new URL('../../../fixtures/golden/', import.meta.url);
const shipped = new URL('../golden/', import.meta.url);
const files = readdirSync(fixtures).sort();
if (JSON.stringify(readdirSync(shipped).sort()) !== JSON.stringify(files)) {
  console.error('golden smoke: golden/ does not hold the files of fixtures/golden');
  process.exit(1);
}
for (const file of files) {
  if (readFileSync(new URL(file, shipped), 'utf8') !== readFileSync(new URL(file, fixtures), 'utf8')) {
    console.error(`golden smoke: golden/${file} differs from fixtures/golden/${file}`);
    process.exit(1);
  }
}
for (const [format, build] of Object.entries(builds)) {
  const sessions = build.listGoldenSessions();
  for (const { name } of sessions) {
    const replayed = build.replayGoldenSession(name);
    if (!replayed.ok || `${JSON.stringify(replayed.value.state, null, 2)}\n` !== replayed.value.expectedStateJson) {
      console.error(`golden smoke: ${format} build: ${name} does not replay to its pinned state`);
      process.exit(1);
    }
  }
  console.log(`golden smoke: the ${format} build replays its ${sessions.length} sessions to their pinned states`);
}
console.log(`golden smoke: golden/ ships the ${files.length} files of fixtures/golden`);
