/**
 * The shape of client bundles, not their speed: a client import brings only
 * what it uses (issue 17: a browser page that imports `createTurnId` downloads
 * neither `TurnRecovery` nor zod). Checked on the built packages, as an app
 * bundles them; sizes are reported by `pnpm bench`, never asserted here.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { clientImportEntry, SHAKABLE_PACKAGES, unusedBuildResidue } from './client-imports.mjs';

// One minified browser bundle of `contents`: its text and the files that reached it.
async function bundle(contents) {
  const result = await build({
    stdin: { contents, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  return { text: result.outputFiles[0].text, inputs: Object.keys(output.inputs) };
}

const fromZod = (inputs) => inputs.filter((path) => /node_modules[\\/]zod[\\/]/.test(path));

// What a server class leaves in a bundle: its registry brand, and a refusal only its methods write.
const TURN_RECOVERY = ['@papercusp/chat-protocol-recovery.TurnRecovery', 'the caller may not start this turn'];
const INTERACTION_RESOLVER = ['@papercusp/chat-protocol-interactions.InteractionResolver', 'the caller may not open a card for this scope'];

describe('client imports cost only what they use (issue 17)', () => {
  it('createTurnId alone bundles without TurnRecovery or zod', async () => {
    const { text, inputs } = await bundle(clientImportEntry({ name: 'createTurnId', from: '@papercusp/chat-protocol-recovery' }));
    expect({
      mintsTurnIds: text.includes('turn_'),
      turnRecovery: TURN_RECOVERY.filter((marker) => text.includes(marker)),
      zodClasses: text.includes('$ZodType'),
      zodFiles: fromZod(inputs),
    }).toEqual({ mintsTurnIds: true, turnRecovery: [], zodClasses: false, zodFiles: [] });
  });

  it.each([
    ['isTurnId', 'recovery', TURN_RECOVERY],
    ['IDEMPOTENCY_KEY_HEADER', 'recovery', TURN_RECOVERY],
    ['deliveryStateFromResend', 'recovery', TURN_RECOVERY],
    ['parseInteractionRecord', 'interactions', INTERACTION_RESOLVER],
    ['isInteractionScope', 'interactions', INTERACTION_RESOLVER],
    ['splitTurnText', 'blocks', []],
    ['followChatTurn', 'sse', TURN_RECOVERY],
  ])('%s alone bundles without zod or the server class of its package', async (name, folder, markers) => {
    const { text, inputs } = await bundle(clientImportEntry({ name, from: `@papercusp/chat-protocol-${folder}` }));
    expect({ serverClass: markers.filter((marker) => text.includes(marker)), zodFiles: fromZod(inputs) }).toEqual({
      serverClass: [],
      zodFiles: [],
    });
  });

  it.each([
    ['TurnRecovery', 'recovery', TURN_RECOVERY],
    ['InteractionResolver', 'interactions', INTERACTION_RESOLVER],
  ])('%s itself brings its brand and refusals, so the checks above can see them', async (name, folder, markers) => {
    const { text } = await bundle(clientImportEntry({ name, from: `@papercusp/chat-protocol-${folder}` }));
    expect(markers.filter((marker) => text.includes(marker))).toEqual(markers);
  });

  it.each(SHAKABLE_PACKAGES)('%s leaves no code in a bundle that imports none of its exports', async (packageName) => {
    expect(await unusedBuildResidue(packageName)).toBe('');
  });
});
