// The published bin end to end, after the build (the package's `lint` runs it):
// `bin/chat-protocol.js` imports the built `dist/cli.js`, which the vitest
// suites never load, and must pass main's exit code on to the shell.
import { spawnSync } from 'node:child_process';
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
    console.error(`bin smoke: ${capture}: expected exit ${status} and "${firstLine}", got exit ${run.status} and "${shown}"\n${run.stderr}`);
    process.exit(1);
  }
  console.log(`bin smoke: chat-protocol verify ${capture} exits ${status}`);
}
