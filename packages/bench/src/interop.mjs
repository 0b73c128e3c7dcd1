/**
 * The interop bundles (issue 18): each package's encoder alone, as a backend
 * or a browser that speaks the peer's protocol ships it, and its decoder
 * alone, which brings core's strict parser. Minified and gzipped as in
 * bundle-size.mjs, zod counted where it is reached.
 */
import { createAgUiDecoder, createAgUiEncoder } from '@papercusp/chat-protocol-ag-ui';
import { createAiSdkDecoder, createAiSdkEncoder, encodeAiSdkSseFrame } from '@papercusp/chat-protocol-ai-sdk';
import { measureBundle } from './bundle-size.mjs';
import { markdownTable } from './markdown-table.mjs';

/** `{ agUi, aiSdk }`, each `{ encoder, decoder }` of `measureBundle` results. */
export async function measureInteropBundles() {
  // What the bundles below import must exist, or esbuild would measure an empty module.
  for (const entry of [createAgUiEncoder, createAgUiDecoder, createAiSdkEncoder, createAiSdkDecoder, encodeAiSdkSseFrame]) {
    if (typeof entry !== 'function') throw new Error('an interop export the bundles import is missing');
  }
  return {
    agUi: {
      encoder: await measureBundle("export { createAgUiEncoder } from '@papercusp/chat-protocol-ag-ui';"),
      decoder: await measureBundle("export { createAgUiDecoder } from '@papercusp/chat-protocol-ag-ui';"),
    },
    aiSdk: {
      encoder: await measureBundle("export { createAiSdkEncoder, encodeAiSdkSseFrame } from '@papercusp/chat-protocol-ai-sdk';"),
      decoder: await measureBundle("export { createAiSdkDecoder } from '@papercusp/chat-protocol-ai-sdk';"),
    },
  };
}

const bytes = (value) => `${value.toLocaleString('en')} B`;

/** The RESULTS.md section of the interop bundles. */
export function interopSection({ agUi, aiSdk }) {
  const row = (contender, bundle) => ({
    contender,
    minified: bytes(bundle.minifiedBytes),
    gzipped: bytes(bundle.gzippedBytes),
    zod: bytes(bundle.zodMinifiedBytes),
  });
  const table = markdownTable({ contender: 'bundle', minified: 'minified', gzipped: 'gzipped (-9)', zod: 'of it zod (minified)' }, [
    row('`createAgUiEncoder` (`@papercusp/chat-protocol-ag-ui`)', agUi.encoder),
    row('`createAgUiDecoder`', agUi.decoder),
    row('`createAiSdkEncoder` + `encodeAiSdkSseFrame` (`@papercusp/chat-protocol-ai-sdk`)', aiSdk.encoder),
    row('`createAiSdkDecoder`', aiSdk.decoder),
  ]);
  return `## Interop: what each converter ships (issue 18)

${table}

- ESM bundles of each export alone from the built packages, esbuild-minified and gzipped at level 9. A decoder re-parses
  every envelope with core's strict parser, so it carries most of core; an encoder writes the peer's events from an
  envelope it is given and carries little.
`;
}
