/**
 * The built facade under Node's own resolution, as a consumer installs it: a
 * fresh build (the package's own `tsup` config, JavaScript only; `attw --pack`
 * in `pnpm lint` checks the types) lands in a temporary project's
 * `node_modules/@papercusp/chat-protocol` with this package.json, beside links
 * to the packages it depends on. Building here, not reading `dist/`, keeps the
 * test honest under turbo, which runs `test` after the dependencies' builds but
 * not after this package's own.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as blocks from '@papercusp/chat-protocol-blocks';
import * as core from '@papercusp/chat-protocol-core';
import * as interactions from '@papercusp/chat-protocol-interactions';
import * as legacyAdapter from '@papercusp/chat-protocol-legacy-adapter';
import * as recovery from '@papercusp/chat-protocol-recovery';
import * as testkit from '@papercusp/chat-protocol-testkit';
import facadeBuild, { facadeEntries } from '../tsup.config.js';

const packageRoot = new URL('../', import.meta.url);
const subpaths = [
  { specifier: '@papercusp/chat-protocol', packageName: '@papercusp/chat-protocol-core', mirrored: core },
  { specifier: '@papercusp/chat-protocol/blocks', packageName: '@papercusp/chat-protocol-blocks', mirrored: blocks },
  { specifier: '@papercusp/chat-protocol/recovery', packageName: '@papercusp/chat-protocol-recovery', mirrored: recovery },
  { specifier: '@papercusp/chat-protocol/interactions', packageName: '@papercusp/chat-protocol-interactions', mirrored: interactions },
  { specifier: '@papercusp/chat-protocol/legacy', packageName: '@papercusp/chat-protocol-legacy-adapter', mirrored: legacyAdapter },
  { specifier: '@papercusp/chat-protocol/testkit', packageName: '@papercusp/chat-protocol-testkit', mirrored: testkit },
] as const;

interface Loaded {
  readonly specifier: string;
  readonly keys?: readonly string[];
  readonly identical?: boolean;
  readonly error?: string;
}

// One Node process per module system loads every specifier and reports, for
// each, its export names and whether each value is the mirrored package's own.
const probe = (load: string) => `
  const loaded = [];
  for (const [specifier, packageName] of ${JSON.stringify(subpaths.map(({ specifier, packageName }) => [specifier, packageName]))}) {
    try {
      const facade = ${load}(specifier);
      const mirrored = ${load}(packageName);
      const keys = Object.keys(facade).sort();
      const identical = keys.length === Object.keys(mirrored).length && keys.every((key) => facade[key] === mirrored[key]);
      loaded.push({ specifier, keys, identical });
    } catch (error) {
      loaded.push({ specifier, error: error.code ?? String(error) });
    }
  }
  console.log(JSON.stringify(loaded));
`;

let project = '';
const run = (args: readonly string[]): Loaded[] =>
  JSON.parse(execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8' })) as Loaded[];

beforeAll(async () => {
  if (typeof facadeBuild === 'function' || Array.isArray(facadeBuild)) throw new TypeError('tsup.config.ts must export one options object');
  project = realpathSync(mkdtempSync(join(tmpdir(), 'chat-protocol-facade-')));
  const installed = join(project, 'node_modules', '@papercusp', 'chat-protocol');
  mkdirSync(installed, { recursive: true });
  copyFileSync(new URL('package.json', packageRoot), join(installed, 'package.json'));
  for (const { packageName } of subpaths) {
    symlinkSync(realpathSync(new URL(`node_modules/${packageName}`, packageRoot)), join(project, 'node_modules', packageName), 'dir');
  }
  await build({
    ...facadeBuild,
    entry: Object.fromEntries(Object.entries(facadeEntries).map(([entry, source]) => [entry, fileURLToPath(new URL(source, packageRoot))])),
    outDir: join(installed, 'dist'),
    dts: false,
    silent: true,
    config: false,
  });
}, 120_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the built facade under Node resolution (issue 7: exports for every subpath, ESM and CJS)', () => {
  const expected = subpaths.map(({ specifier, mirrored }) => ({ specifier, keys: Object.keys(mirrored).sort(), identical: true }));

  it('require() of the root and every subpath gives exactly the mirrored package’s exports, as the same values', () => {
    expect(run(['-e', probe('require')])).toEqual(expected);
  });

  it('import of the root and every subpath gives exactly the mirrored package’s exports, as the same values', () => {
    expect(run(['--input-type=module', '-e', probe('await import')])).toEqual(expected);
  });

  it('DESIGN §2.8: TurnRecovery.is and InteractionResolver.is agree across the ESM and CJS builds loaded in one process; instanceof does not', () => {
    // One process holds both builds, as a Jest or Next.js app mixing import and require does.
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(process.cwd() + '/');
      const esm = { recovery: await import('@papercusp/chat-protocol/recovery'), interactions: await import('@papercusp/chat-protocol/interactions') };
      const cjs = { recovery: require('@papercusp/chat-protocol/recovery'), interactions: require('@papercusp/chat-protocol/interactions') };
      const resolverOptions = { store: { read() {}, transact() {} }, validate: () => ({ ok: true }) };
      const report = {};
      for (const [name, build] of Object.entries({ esm, cjs })) {
        const other = build === esm ? cjs : esm;
        const recovery = new build.recovery.TurnRecovery({});
        const resolver = new build.interactions.InteractionResolver(resolverOptions);
        report[name] = {
          sameClass: build.recovery.TurnRecovery === other.recovery.TurnRecovery,
          instanceofOther: recovery instanceof other.recovery.TurnRecovery || resolver instanceof other.interactions.InteractionResolver,
          turnRecoveryIs: [build.recovery.TurnRecovery.is(recovery), other.recovery.TurnRecovery.is(recovery)],
          interactionResolverIs: [build.interactions.InteractionResolver.is(resolver), other.interactions.InteractionResolver.is(resolver)],
          crossed: [other.recovery.TurnRecovery.is(resolver), other.interactions.InteractionResolver.is(recovery)],
        };
      }
      const throwing = new Proxy({}, { get() { throw new Error('hostile'); } });
      report.others = [null, undefined, {}, 'TurnRecovery', throwing].flatMap((value) => [esm.recovery.TurnRecovery.is(value), cjs.interactions.InteractionResolver.is(value)]);
      console.log(JSON.stringify(report));
    `;
    const each = {
      sameClass: false,
      instanceofOther: false,
      turnRecoveryIs: [true, true],
      interactionResolverIs: [true, true],
      crossed: [false, false],
    };
    expect(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }))).toEqual({
      esm: each,
      cjs: each,
      others: Array.from({ length: 10 }, () => false),
    });
  });

  it('refuses paths the exports map does not list, in both module systems', () => {
    const unlisted = (load: string) => `
      for (const specifier of ['@papercusp/chat-protocol/legacy-adapter', '@papercusp/chat-protocol/dist/index.js', '@papercusp/chat-protocol/src/index.ts']) {
        try { ${load}(specifier); console.log(specifier + ': loaded'); } catch (error) { console.log(specifier + ': ' + error.code); }
      }
    `;
    const refusals = [
      '@papercusp/chat-protocol/legacy-adapter: ERR_PACKAGE_PATH_NOT_EXPORTED',
      '@papercusp/chat-protocol/dist/index.js: ERR_PACKAGE_PATH_NOT_EXPORTED',
      '@papercusp/chat-protocol/src/index.ts: ERR_PACKAGE_PATH_NOT_EXPORTED',
      '',
    ].join('\n');
    expect(execFileSync(process.execPath, ['-e', unlisted('require')], { cwd: project, encoding: 'utf8' })).toBe(refusals);
    expect(
      execFileSync(process.execPath, ['--input-type=module', '-e', unlisted('await import')], { cwd: project, encoding: 'utf8' }),
    ).toBe(refusals);
  });
});
