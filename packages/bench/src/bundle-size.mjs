/**
 * Bundle sizes as a browser would download them: an ESM bundle of some
 * imports from the built packages, minified by esbuild and gzipped at level 9
 * the way a CDN would serve it, with the share zod takes when it is bundled in.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * Returns `{ minifiedBytes, gzippedBytes, zodMinifiedBytes }` of a bundle whose
 * entry is `contents` (module source), leaving the `external` imports out.
 */
export async function measureBundle(contents, external = []) {
  const result = await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    external,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  let zodMinifiedBytes = 0;
  for (const [path, input] of Object.entries(output.inputs)) {
    if (/node_modules[\\/]zod[\\/]/.test(path)) zodMinifiedBytes += input.bytesInOutput;
  }
  return { minifiedBytes: code.byteLength, gzippedBytes: gzipSync(code, { level: 9 }).byteLength, zodMinifiedBytes };
}

/**
 * The smallest real browser client of the core: `parseChatEnvelope`,
 * `applyChatEvent` and `createChatState`, zod bundled in if they reach it.
 */
export function measureClientBundle() {
  return measureBundle("export { applyChatEvent, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol-core';");
}

/**
 * The testkit in a browser test bundle: its fake stores alone, and the golden
 * session replays, whose sessions travel inside the bundle (zod bundled in
 * where they reach it). The first shows the sessions cost nothing to a bundle
 * that does not import them.
 */
export async function measureTestkitBundles() {
  return {
    stores: await measureBundle(
      "export { createFakeDatabase, createFakeTurnStore, createFakeInteractionStore } from '@papercusp/chat-protocol-testkit';",
    ),
    golden: await measureBundle("export { listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol-testkit';"),
  };
}
