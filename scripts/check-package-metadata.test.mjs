// Tests of the metadata check (issue 14 "Metadata": a lint check that fails when
// a package lacks a field, naming the package and the field). Run by `pnpm lint`
// with Node's own test runner: the scripts have no package of their own.
import { deepStrictEqual } from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkPackageMetadata, checkRepository, REPOSITORY_URL } from './check-package-metadata.mjs';

const LICENSE = 'MIT License\n\nCopyright (c) 2026 Papercusp\n';

function completeManifest() {
  return {
    name: '@papercusp/chat-protocol-example',
    version: '0.1.0',
    description: 'An example package.',
    keywords: ['chat'],
    homepage: `${REPOSITORY_URL}/tree/main/packages/chat-protocol-example#readme`,
    bugs: { url: `${REPOSITORY_URL}/issues` },
    repository: { type: 'git', url: `git+${REPOSITORY_URL}.git`, directory: 'packages/chat-protocol-example' },
    license: 'MIT',
    engines: { node: '>=20' },
    publishConfig: { access: 'public' },
    type: 'module',
    sideEffects: false,
    files: ['dist'],
    exports: {
      '.': {
        import: { types: './dist/index.d.ts', default: './dist/index.js' },
        require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
      },
      './schema/example.json': './schema/example.json',
      './package.json': './package.json',
    },
  };
}

const complete = () => ({
  folder: 'chat-protocol-example',
  manifest: completeManifest(),
  license: LICENSE,
  readme: '# example\n',
  rootLicense: LICENSE,
});

/** The fields of the problems found once `change` is applied to a complete package. */
function fieldsAfter(change) {
  const input = complete();
  change(input);
  return checkPackageMetadata(input).map(({ field }) => field);
}

describe('issue 14: the metadata every public package carries', () => {
  it('a complete package has no problem', () => {
    deepStrictEqual(checkPackageMetadata(complete()), []);
  });

  const removals = [
    'name',
    'version',
    'description',
    'keywords',
    'homepage',
    'bugs',
    'repository',
    'license',
    'engines',
    'publishConfig',
    'type',
    'sideEffects',
    'files',
    'exports',
  ];
  for (const field of removals) {
    it(`a package without ${field} fails on ${field}`, () => {
      deepStrictEqual(
        fieldsAfter(({ manifest }) => delete manifest[field]),
        [field],
      );
    });
  }

  it('names the package the field belongs to and what is expected', () => {
    const input = complete();
    delete input.manifest.repository.directory;
    deepStrictEqual(checkPackageMetadata(input), [
      {
        field: 'repository',
        message: `must be {"type":"git","url":"git+${REPOSITORY_URL}.git","directory":"packages/chat-protocol-example"}, found {"type":"git","url":"git+${REPOSITORY_URL}.git"}`,
      },
    ]);
  });

  it('wrong values fail as missing ones do: a license other than MIT, side effects, CommonJS, an older Node, restricted access, no keywords', () => {
    deepStrictEqual(
      fieldsAfter(({ manifest }) => {
        Object.assign(manifest, {
          license: 'ISC',
          sideEffects: true,
          type: 'commonjs',
          engines: { node: '>=18' },
          publishConfig: { access: 'restricted' },
          keywords: [],
        });
      }),
      ['keywords', 'license', 'engines', 'publishConfig', 'type', 'sideEffects'],
    );
  });

  it('a package whose name is not @papercusp/<folder>, or whose links point at another folder, fails on those fields', () => {
    deepStrictEqual(
      fieldsAfter((input) => (input.folder = 'chat-protocol-other')),
      ['name', 'homepage', 'repository'],
    );
  });

  it('files must ship dist', () => {
    deepStrictEqual(
      fieldsAfter(({ manifest }) => (manifest.files = ['lib'])),
      ['files'],
    );
  });

  it('a LICENSE that is missing or differs from the root one fails on LICENSE; a missing or empty README on README.md', () => {
    deepStrictEqual(
      fieldsAfter((input) => (input.license = null)),
      ['LICENSE'],
    );
    deepStrictEqual(
      fieldsAfter((input) => (input.license = `${LICENSE}more\n`)),
      ['LICENSE'],
    );
    deepStrictEqual(
      fieldsAfter((input) => (input.readme = null)),
      ['README.md'],
    );
    deepStrictEqual(
      fieldsAfter((input) => (input.readme = '\n')),
      ['README.md'],
    );
  });

  it('every code entry of the exports map has import and require conditions, each with its own types first', () => {
    deepStrictEqual(
      fieldsAfter(({ manifest }) => delete manifest.exports['.'].require.types),
      ['exports["."].require'],
    );
    deepStrictEqual(
      fieldsAfter(({ manifest }) => (manifest.exports['.'].import = { default: './dist/index.js', types: './dist/index.d.ts' })),
      ['exports["."].import'],
    );
    deepStrictEqual(
      fieldsAfter(({ manifest }) => (manifest.exports['.'].require.types = './dist/index.d.ts')),
      ['exports["."].require'],
    );
    deepStrictEqual(
      fieldsAfter(({ manifest }) => (manifest.exports['./extra'] = { import: { types: './dist/extra.d.ts', default: './dist/extra.js' } })),
      ['exports["./extra"].require'],
    );
    deepStrictEqual(
      fieldsAfter(({ manifest }) => (manifest.exports['./extra'] = './dist/extra.js')),
      ['exports["./extra"]'],
    );
    deepStrictEqual(
      fieldsAfter(({ manifest }) => delete manifest.exports['./package.json']),
      ['exports["./package.json"]'],
    );
    deepStrictEqual(
      fieldsAfter(({ manifest }) => delete manifest.exports['.']),
      ['exports'],
    );
  });

  it('checks every public package of a repository, a new one included, and skips private ones', () => {
    const root = mkdtempSync(join(tmpdir(), 'package-metadata-'));
    try {
      writeFileSync(join(root, 'LICENSE'), LICENSE);
      const add = (folder, manifest) => {
        mkdirSync(join(root, 'packages', folder), { recursive: true });
        writeFileSync(join(root, 'packages', folder, 'package.json'), JSON.stringify(manifest));
      };
      add('chat-protocol-example', { ...completeManifest(), keywords: undefined });
      writeFileSync(join(root, 'packages', 'chat-protocol-example', 'LICENSE'), LICENSE);
      writeFileSync(join(root, 'packages', 'chat-protocol-example', 'README.md'), '# example\n');
      add('chat-protocol-new', { name: '@papercusp/chat-protocol-new', version: '0.0.0' });
      add('bench', { name: '@papercusp/chat-protocol-bench', private: true });
      const problems = checkRepository(root);
      deepStrictEqual(problems[0], '@papercusp/chat-protocol-example: keywords must be a non-empty list of words, found nothing');
      const newPackage = '@papercusp/chat-protocol-new: ';
      deepStrictEqual(
        problems.slice(1).map((line) => (line.startsWith(newPackage) ? line.slice(newPackage.length).split(' ')[0] : line)),
        [
          'description',
          'keywords',
          'homepage',
          'bugs',
          'repository',
          'license',
          'engines',
          'publishConfig',
          'type',
          'sideEffects',
          'files',
          'exports',
          'LICENSE',
          'README.md',
        ],
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
