/**
 * What each client-side import costs a browser or mobile bundle on its own:
 * one esbuild bundle per import from the built packages (minify, gzip -9, zod
 * bundled in where it is reached), and what a package's build leaves behind in
 * a bundle that imports nothing of it. A top-level side effect (a class with a
 * computed key, an unannotated call) keeps code alive in every bundle of its
 * package; `client-imports.test.mjs` fails when one comes back. No goal here.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { measureBundle } from './bundle-size.mjs';
import { markdownTable } from './markdown-table.mjs';

/** The client-side imports measured one by one: `{ name, from }`, what a browser page or app imports. */
const CLIENT_IMPORTS = [
  ['createTurnId', 'recovery'],
  ['isTurnId', 'recovery'],
  ['IDEMPOTENCY_KEY_HEADER', 'recovery'],
  ['TURN_ID_FIELD', 'recovery'],
  ['parseTurnStatusResponse', 'recovery'],
  ['deliveryStateFromResend', 'recovery'],
  ['deliveryStateFromStatus', 'recovery'],
  ['parseReportTag', 'blocks'],
  ['parseAskTag', 'blocks'],
  ['splitTurnText', 'blocks'],
  ['createTurnTextSplitter', 'blocks'],
  ['stripBlockTags', 'blocks'],
  ['parseInteractionRecord', 'interactions'],
  ['isInteractionScope', 'interactions'],
  ['followChatTurn', 'sse'],
].map(([name, folder]) => ({ name, from: `@papercusp/chat-protocol-${folder}` }));

/** The packages whose build must leave nothing in a bundle that imports none of their exports. */
export const SHAKABLE_PACKAGES = [
  '@papercusp/chat-protocol-core',
  '@papercusp/chat-protocol-recovery',
  '@papercusp/chat-protocol-blocks',
  '@papercusp/chat-protocol-interactions',
  '@papercusp/chat-protocol-sse',
];

/** The entry module that re-exports one client import. */
export function clientImportEntry({ name, from }) {
  return `export { ${name} } from '${from}';`;
}

/** `{ name, from, gzippedBytes, zodMinifiedBytes }` for each of {@link CLIENT_IMPORTS}. */
export async function measureClientImports() {
  const rows = [];
  for (const entry of CLIENT_IMPORTS) rows.push({ ...entry, ...(await measureBundle(clientImportEntry(entry))) });
  return rows;
}

/**
 * The code a package's ESM build leaves in a bundle that imports it and uses
 * none of its exports, unminified, with its imports of other packages (kept
 * as bare `import` lines, since they stay external) removed. Empty when every
 * top-level statement of the build can be dropped. The build is bundled from a
 * copy outside the package, so its `"sideEffects": false` does not drop the
 * module wholesale: what remains is what a bundler must keep. The whole build
 * folder is copied, so the chunks an entry shares with the package's other
 * entries (core's `./internal`) come along.
 */
export async function unusedBuildResidue(packageName) {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const builtEntry = join(dirname(manifestPath), JSON.parse(readFileSync(manifestPath, 'utf8')).exports['.'].import.default);
  const directory = mkdtempSync(join(tmpdir(), 'client-imports-'));
  try {
    cpSync(dirname(builtEntry), directory, { recursive: true });
    const result = await build({
      stdin: { contents: `import './${basename(builtEntry)}';`, resolveDir: directory, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      external: ['zod', 'zod/*', '@papercusp/*', 'eventsource-parser', '@standard-schema/*'],
      write: false,
      logLevel: 'silent',
    });
    return result.outputFiles[0].text
      .split('\n')
      .filter((line) => !/^\/\/ /.test(line) && !/^import\b/.test(line) && line.trim() !== '')
      .join('\n');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const require = createRequire(import.meta.url);
const bytes = (value) => `${value.toLocaleString('en')} B`;

/** The RESULTS.md section of {@link measureClientImports}'s rows. */
export function clientImportsSection(rows) {
  const table = markdownTable(
    { name: 'import', from: 'package', gzipped: 'gzipped', zod: 'zod (minified)' },
    rows.map((row) => ({
      name: `\`${row.name}\``,
      from: `\`${row.from.replace('@papercusp/', '')}\``,
      gzipped: bytes(row.gzippedBytes),
      zod: row.zodMinifiedBytes === 0 ? 'none' : bytes(row.zodMinifiedBytes),
    })),
  );
  return `## Client imports: what each costs a browser bundle alone (issue #17)

${table}

- One esbuild bundle per import (minify, gzip -9, for the browser), zod bundled in where the import reaches it. Each
  import costs only what it uses: \`createTurnId\` does not bring \`TurnRecovery\` or zod (it did, about 16 KB gzipped,
  while \`TurnRecovery\`'s brand getter had a computed key in the class body). \`parseTurnStatusResponse\` and
  \`deliveryStateFromStatus\` bring zod's mini core for the turn-status schema. The interactions readers do not bring
  \`InteractionResolver\` (with core's card codec and zod, about 17.7 KB gzipped, while its brand getter had a computed
  key and its private fields were lowered to top-level assignments). \`client-imports.test.mjs\` checks the
  shape in \`pnpm test\`: no \`TurnRecovery\` or zod beside \`createTurnId\`, and nothing left of a package's build in a
  bundle that uses none of it.
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(clientImportsSection(await measureClientImports()));
}
