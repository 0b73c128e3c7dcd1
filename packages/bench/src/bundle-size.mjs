/**
 * Size of the smallest real browser client: an ESM bundle that imports
 * `parseChatEnvelope`, `applyChatEvent` and `createChatState` from the built core
 * (zod would be bundled in if they reached it),
 * minified by esbuild and gzipped at level 9 the way a CDN would serve it.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Returns `{ minifiedBytes, gzippedBytes, zodMinifiedBytes }` of the client bundle. */
export async function measureClientBundle() {
  const result = await build({
    stdin: {
      contents:
        "export { applyChatEvent, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol-core';",
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
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
  return {
    minifiedBytes: code.byteLength,
    gzippedBytes: gzipSync(code, { level: 9 }).byteLength,
    zodMinifiedBytes,
  };
}
