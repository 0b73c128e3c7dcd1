import { readFileSync } from 'node:fs';
import * as blocks from '@papercusp/chat-protocol-blocks';
import * as core from '@papercusp/chat-protocol-core';
import * as interactions from '@papercusp/chat-protocol-interactions';
import * as legacyAdapter from '@papercusp/chat-protocol-legacy-adapter';
import * as recovery from '@papercusp/chat-protocol-recovery';
import * as testkit from '@papercusp/chat-protocol-testkit';
import { describe, expect, it } from 'vitest';
import { facadeEntries } from '../tsup.config.js';
import * as facadeBlocks from './blocks.js';
import * as facadeRoot from './index.js';
import * as facadeInteractions from './interactions.js';
import * as facadeLegacy from './legacy.js';
import * as facadeRecovery from './recovery.js';
import * as facadeTestkit from './testkit.js';

// Each facade entry mirrors one package (DESIGN §1, issue 7 "Facade"). The
// packages pin their own lists; these tests pin that the facade neither drops,
// adds nor wraps a name, so the two can never drift.
const mirrors = [
  { entry: 'index', subpath: '.', packageName: '@papercusp/chat-protocol-core', facade: facadeRoot, mirrored: core },
  { entry: 'blocks', subpath: './blocks', packageName: '@papercusp/chat-protocol-blocks', facade: facadeBlocks, mirrored: blocks },
  {
    entry: 'recovery',
    subpath: './recovery',
    packageName: '@papercusp/chat-protocol-recovery',
    facade: facadeRecovery,
    mirrored: recovery,
  },
  {
    entry: 'interactions',
    subpath: './interactions',
    packageName: '@papercusp/chat-protocol-interactions',
    facade: facadeInteractions,
    mirrored: interactions,
  },
  {
    entry: 'legacy',
    subpath: './legacy',
    packageName: '@papercusp/chat-protocol-legacy-adapter',
    facade: facadeLegacy,
    mirrored: legacyAdapter,
  },
  { entry: 'testkit', subpath: './testkit', packageName: '@papercusp/chat-protocol-testkit', facade: facadeTestkit, mirrored: testkit },
] as const;

interface ConditionalExport {
  readonly import: { readonly types: string; readonly default: string };
  readonly require: { readonly types: string; readonly default: string };
}
interface Manifest {
  readonly exports: Record<string, ConditionalExport | string>;
  readonly typesVersions: Record<string, Record<string, readonly string[]>>;
  readonly dependencies: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
  readonly devDependencies?: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;

describe.each(mirrors)('@papercusp/chat-protocol entry $subpath mirrors $packageName', ({ facade, mirrored }) => {
  it('exposes exactly the runtime names of the package it mirrors', () => {
    expect(Object.keys(mirrored).length).toBeGreaterThan(0);
    expect(Object.keys(facade).sort()).toEqual(Object.keys(mirrored).sort());
  });

  it('exposes the same values, so classes, schemas and constants are identical (instanceof and === hold)', () => {
    for (const [name, value] of Object.entries(mirrored)) expect(facade[name as keyof typeof facade], name).toBe(value);
  });
});

describe('the published shape of @papercusp/chat-protocol', () => {
  it('builds one entry per subpath and pins a mirror for each', () => {
    expect(mirrors.map(({ entry }) => entry).sort()).toEqual(Object.keys(facadeEntries).sort());
  });

  it('exports exactly the root, the five subpaths and package.json, each with its own types for import and require', () => {
    expect(Object.keys(manifest.exports).sort()).toEqual([...mirrors.map(({ subpath }) => subpath), './package.json'].sort());
    for (const { entry, subpath } of mirrors) {
      expect(manifest.exports[subpath], subpath).toEqual({
        import: { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` },
        require: { types: `./dist/${entry}.d.cts`, default: `./dist/${entry}.cjs` },
      });
    }
  });

  it('maps every subpath for node10 type resolution through typesVersions', () => {
    const subpaths = mirrors.filter(({ entry }) => entry !== 'index');
    expect(manifest.typesVersions).toEqual({ '*': Object.fromEntries(subpaths.map(({ entry }) => [entry, [`./dist/${entry}.d.cts`]])) });
  });

  const testkitName = '@papercusp/chat-protocol-testkit';
  it('depends on each mirrored package with a workspace:^ range, the testkit excepted, and on nothing else', () => {
    const runtime = mirrors.filter(({ packageName }) => packageName !== testkitName);
    expect(manifest.dependencies).toEqual(Object.fromEntries(runtime.map(({ packageName }) => [packageName, 'workspace:^'])));
  });

  it('DESIGN §2.8: the testkit is an optional peer of any version and a dev dependency, so an app installs no test tooling', () => {
    expect([
      manifest.peerDependencies?.[testkitName],
      manifest.peerDependenciesMeta?.[testkitName],
      manifest.devDependencies?.[testkitName],
    ]).toEqual(['*', { optional: true }, 'workspace:^']);
  });
});
