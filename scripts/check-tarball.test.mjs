// Tests of the release's tarball check (issue 14 "Metadata": a release dry run
// that packs every package and checks the tarballs). Run by `pnpm lint`.
import { deepStrictEqual } from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTarball, resolveWorkspaceRange } from './check-tarball.mjs';

const exportsMap = {
  '.': {
    import: { types: './dist/index.d.ts', default: './dist/index.js' },
    require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
  },
  './package.json': './package.json',
};
const source = {
  name: '@papercusp/chat-protocol-example',
  version: '0.1.0',
  exports: exportsMap,
  dependencies: { '@papercusp/chat-protocol-core': 'workspace:^', '@standard-schema/spec': '1.1.0' },
  peerDependencies: { zod: '^3.25.0 || ^4.0.0' },
};
const packed = { ...source, dependencies: { '@papercusp/chat-protocol-core': '^0.1.0', '@standard-schema/spec': '1.1.0' } };
const paths = [
  'LICENSE',
  'README.md',
  'package.json',
  'dist/index.js',
  'dist/index.js.map',
  'dist/index.cjs',
  'dist/index.cjs.map',
  'dist/index.d.ts',
  'dist/index.d.cts',
];
const map = JSON.stringify({ version: 3, sources: ['../src/index.ts'], sourcesContent: ['export {};\n'], mappings: '' });
const versions = new Map([
  ['@papercusp/chat-protocol-core', '0.1.0'],
  ['@papercusp/chat-protocol-example', '0.1.0'],
]);
const complete = () => ({ source, packed, paths, readText: () => map, versions });

describe('issue 14: a tarball fit to publish', () => {
  it('a complete tarball has no problem', () => {
    deepStrictEqual(checkTarball(complete()), []);
  });

  it('LICENSE, README.md and package.json are in it', () => {
    deepStrictEqual(checkTarball({ ...complete(), paths: paths.filter((path) => path !== 'LICENSE' && path !== 'README.md') }), [
      'LICENSE is not in the tarball',
      'README.md is not in the tarball',
    ]);
  });

  it('each entry ships ESM, CommonJS, both types and a map per script', () => {
    deepStrictEqual(
      checkTarball({ ...complete(), paths: paths.filter((path) => path !== 'dist/index.cjs' && path !== 'dist/index.js.map') }),
      ['dist/index.cjs is named by package.json but not in the tarball', 'dist/index.js.map is missing'],
    );
  });

  it('an entry package.json names only as ESM still ships its CommonJS build and both types', () => {
    const esmOnly = { ...packed, exports: { '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } } } };
    deepStrictEqual(
      checkTarball({
        ...complete(),
        packed: esmOnly,
        paths: paths.filter((path) => !path.startsWith('dist/index.c') && path !== 'dist/index.d.cts'),
      }),
      [
        'dist/index.cjs is missing: every entry ships ESM, CommonJS and the types of both',
        'dist/index.d.cts is missing: every entry ships ESM, CommonJS and the types of both',
      ],
    );
  });

  it('a source map carries the text of its sources, since src is not published', () => {
    const bare = JSON.stringify({ version: 3, sources: ['../src/index.ts'], mappings: '' });
    deepStrictEqual(checkTarball({ ...complete(), readText: () => bare }), [
      'dist/index.js.map lacks the text of ../src/index.ts (sourcesContent)',
      'dist/index.cjs.map lacks the text of ../src/index.ts (sourcesContent)',
    ]);
    deepStrictEqual(checkTarball({ ...complete(), readText: () => 'not json' }), [
      'dist/index.js.map is not a JSON source map',
      'dist/index.cjs.map is not a JSON source map',
    ]);
  });

  it('no sources, tests, fixtures, examples or configs leak in', () => {
    const leaks = [
      'src/index.ts',
      'dist/index.test.js',
      'fixtures/golden/a.json',
      'examples/quick-start.mjs',
      'tsconfig.json',
      'vitest.config.ts',
      'test/setup.ts',
    ];
    deepStrictEqual(
      checkTarball({ ...complete(), paths: [...paths, ...leaks] }).filter((problem) => !problem.includes('.map')),
      leaks.map((path) => `${path} is a workspace file and must not be published`),
    );
  });

  it('internal ranges are resolved from workspace:^ to ^<version being released>; other ranges stay as written', () => {
    deepStrictEqual(
      checkTarball({
        ...complete(),
        packed: { ...packed, dependencies: { '@papercusp/chat-protocol-core': 'workspace:^', '@standard-schema/spec': '1.1.0' } },
      }),
      [
        'dependencies.@papercusp/chat-protocol-core is "workspace:^", expected "^0.1.0"',
        'dependencies.@papercusp/chat-protocol-core still has the workspace range "workspace:^"',
      ],
    );
    deepStrictEqual(
      checkTarball({
        ...complete(),
        packed: { ...packed, dependencies: { '@papercusp/chat-protocol-core': '^0.0.0', '@standard-schema/spec': '1.1.0' } },
      }),
      ['dependencies.@papercusp/chat-protocol-core is "^0.0.0", expected "^0.1.0"'],
    );
    deepStrictEqual(checkTarball({ ...complete(), packed: { ...packed, peerDependencies: { zod: '^4.1.0' } } }), [
      'peerDependencies.zod is "^4.1.0", expected "^3.25.0 || ^4.0.0"',
    ]);
  });

  it('the version is the one in the workspace, and never 0.0.0', () => {
    deepStrictEqual(checkTarball({ ...complete(), packed: { ...packed, version: '0.2.0' } }), [
      'version is "0.2.0" in the tarball, "0.1.0" in the workspace',
    ]);
    const unreleased = { ...source, version: '0.0.0' };
    deepStrictEqual(checkTarball({ ...complete(), source: unreleased, packed: { ...packed, version: '0.0.0' } }), [
      'version is 0.0.0: run `changeset version` first (a ^0.0.0 range admits only 0.0.0)',
    ]);
  });

  it('resolves workspace ranges as pnpm does', () => {
    deepStrictEqual(
      ['workspace:^', 'workspace:~', 'workspace:*', 'workspace:^0.1.0', '^1.2.0'].map((range) => resolveWorkspaceRange(range, '0.1.0')),
      ['^0.1.0', '~0.1.0', '0.1.0', '^0.1.0', '^1.2.0'],
    );
  });
});
