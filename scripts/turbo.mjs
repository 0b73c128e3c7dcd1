#!/usr/bin/env node
// `pnpm test` and `pnpm soak`: turbo with colour only for a person at a terminal.
// vitest's colours do not ask whether their output is a terminal, so a run
// written to a file or a CI log would be full of escape codes; NO_COLOR (which
// turbo.json lists, so a cached log replays the way it was asked for) turns
// them off there. Everything else is turbo's own: the arguments pass through.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const turbo = fileURLToPath(new URL('../node_modules/.bin/turbo', import.meta.url));
const environment = { ...process.env };
if (process.stdout.isTTY !== true && environment['FORCE_COLOR'] === undefined) environment['NO_COLOR'] = '1';
const run = spawnSync(turbo, process.argv.slice(2), { stdio: 'inherit', env: environment });
if (run.error !== undefined) {
  process.stderr.write(`turbo could not start: ${run.error.message}\n`);
  process.exit(1);
}
process.exit(run.status ?? 1);
