/**
 * The browser page's build step: bundles `src/page/browser/main.ts` (and what
 * it imports from the sibling packages' builds) into one minified script with
 * esbuild, for tsup and vitest to define as `__CHAT_HOST_BROWSER_PAGE_SCRIPT__`.
 * So the host serves the page from memory on any runtime, reading no file.
 */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

// The global the bundled script is defined as, in the host's build and its tests.
const BROWSER_PAGE_SCRIPT_GLOBAL = '__CHAT_HOST_BROWSER_PAGE_SCRIPT__';

// The page's script: one minified ES2020 IIFE for browsers, no source map, nothing written.
function bundleBrowserPage(): string {
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL('src/page/browser/main.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'error',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('bundleBrowserPage: esbuild wrote no output');
  return output.text;
}

/** The `define` entry that gives the host its page script. */
export function browserPageDefine(): Record<string, string> {
  return { [BROWSER_PAGE_SCRIPT_GLOBAL]: JSON.stringify(bundleBrowserPage()) };
}
