/**
 * The golden sessions travel inside the testkit's bundle: the testkit imports
 * `virtual:chat-protocol-golden`, a module whose default export maps each file
 * name in `fixtures/golden/` to its text. The same module is built for vitest
 * (a vite plugin, every package's tests) and for tsup (an esbuild plugin, the
 * testkit's build), so hosts get the sessions without file-system access:
 * browser and React Native test runners included. The build also copies the
 * files into the package's `golden/` folder, so they ship as files too.
 */
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Options } from 'tsup';

const MODULE_ID = 'virtual:chat-protocol-golden';
const GOLDEN = new URL('../fixtures/golden/', import.meta.url);

function goldenModuleSource(): string {
  const files = Object.fromEntries(
    readdirSync(GOLDEN)
      .sort()
      .map((file) => [file, readFileSync(new URL(file, GOLDEN), 'utf8')]),
  );
  return `export default ${JSON.stringify(files)};\n`;
}

/** The vite (vitest) plugin that serves the module. */
export const goldenVitePlugin = {
  name: 'chat-protocol-golden',
  resolveId: (id: string) => (id === MODULE_ID ? `\0${MODULE_ID}` : undefined),
  load: (id: string) => (id === `\0${MODULE_ID}` ? goldenModuleSource() : undefined),
};

/** The esbuild (tsup) plugin that bundles the module. */
export const goldenEsbuildPlugin: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'chat-protocol-golden',
  setup(build) {
    build.onResolve({ filter: /^virtual:chat-protocol-golden$/ }, () => ({ path: MODULE_ID, namespace: 'chat-protocol-golden' }));
    build.onLoad({ filter: /.*/, namespace: 'chat-protocol-golden' }, () => ({ contents: goldenModuleSource(), loader: 'js' }));
  },
};

/** Replaces the folder `target` with a copy of `fixtures/golden/` (the testkit's build, after bundling). */
export function copyGoldenFiles(target: string): void {
  rmSync(target, { recursive: true, force: true });
  cpSync(GOLDEN, target, { recursive: true });
}
