#!/usr/bin/env node
// `pnpm lint`'s metadata check (issue 14): every public package carries what an
// app and a registry expect of it, so a package added later cannot ship without
// it. It owns the fields publint and attw do not demand (license file, links,
// keywords, engines, access, the shape of the exports map); it refuses to judge
// what those tools already check (that the files named exist, that types resolve).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readPublicPackages } from './public-packages.mjs';

/** The repository every package links to. */
export const REPOSITORY_URL = 'https://github.com/Papercusp/chat-protocol';

/**
 * @typedef {object} PackageFiles
 * @property {string} folder the folder under packages/
 * @property {Record<string, unknown>} manifest the parsed package.json
 * @property {string | null} license the package's LICENSE text, `null` when absent
 * @property {string | null} readme the package's README.md text, `null` when absent
 * @property {string} rootLicense the repository's LICENSE text
 */

/**
 * @typedef {object} MetadataProblem
 * @property {string} field the package.json field or file at fault, e.g. `repository.directory`, `LICENSE`
 * @property {string} message what is wrong and what is expected
 */

const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value) => (value === undefined ? 'nothing' : JSON.stringify(value));

/**
 * Checks one public package's metadata and files. Returns every problem found
 * (an empty list when the package is complete), in a fixed order; never throws
 * and never reads the file system (the caller supplies the files).
 * @param {PackageFiles} input
 * @returns {MetadataProblem[]}
 */
export function checkPackageMetadata({ folder, manifest, license, readme, rootLicense }) {
  /** @type {MetadataProblem[]} */
  const problems = [];
  const expect = (field, actual, expected) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      problems.push({ field, message: `must be ${JSON.stringify(expected)}, found ${show(actual)}` });
    }
  };
  const nonEmptyString = (field, value) => {
    if (typeof value !== 'string' || value.trim() === '')
      problems.push({ field, message: `must be a non-empty string, found ${show(value)}` });
  };

  expect('name', manifest.name, `@papercusp/${folder}`);
  nonEmptyString('version', manifest.version);
  nonEmptyString('description', manifest.description);
  if (
    !Array.isArray(manifest.keywords) ||
    manifest.keywords.length === 0 ||
    !manifest.keywords.every((word) => typeof word === 'string' && word !== '')
  ) {
    problems.push({ field: 'keywords', message: `must be a non-empty list of words, found ${show(manifest.keywords)}` });
  }
  expect('homepage', manifest.homepage, `${REPOSITORY_URL}/tree/main/packages/${folder}#readme`);
  expect('bugs', manifest.bugs, { url: `${REPOSITORY_URL}/issues` });
  expect('repository', manifest.repository, { type: 'git', url: `git+${REPOSITORY_URL}.git`, directory: `packages/${folder}` });
  expect('license', manifest.license, 'MIT');
  expect('engines', manifest.engines, { node: '>=20' });
  expect('publishConfig', manifest.publishConfig, { access: 'public' });
  expect('type', manifest.type, 'module');
  expect('sideEffects', manifest.sideEffects, false);
  if (!Array.isArray(manifest.files) || !manifest.files.includes('dist')) {
    problems.push({ field: 'files', message: `must list "dist", found ${show(manifest.files)}` });
  }
  problems.push(...checkExports(manifest.exports));

  // npm packs LICENSE and README.md whatever `files` says: they only have to exist.
  if (license === null) problems.push({ field: 'LICENSE', message: 'is missing: copy the repository root LICENSE into the package' });
  else if (license !== rootLicense) problems.push({ field: 'LICENSE', message: 'differs from the repository root LICENSE' });
  if (readme === null || readme.trim() === '') problems.push({ field: 'README.md', message: 'is missing or empty' });
  return problems;
}

/**
 * The exports map: `.` and `./package.json` present, and every code entry an
 * `import` and a `require` condition that each name their own types first
 * (`.d.ts` beside `.js`, `.d.cts` beside `.cjs`). A string entry may only name
 * a file that is not code (the JSON Schema).
 * @param {unknown} exports
 * @returns {MetadataProblem[]}
 */
function checkExports(exports) {
  if (!isRecord(exports)) return [{ field: 'exports', message: `must be a map of subpaths, found ${show(exports)}` }];
  /** @type {MetadataProblem[]} */
  const problems = [];
  if (!('.' in exports)) problems.push({ field: 'exports', message: 'must export "."' });
  if (exports['./package.json'] !== './package.json')
    problems.push({ field: 'exports["./package.json"]', message: 'must be "./package.json"' });
  const conditions = [
    ['import', '.d.ts', '.js'],
    ['require', '.d.cts', '.cjs'],
  ];
  for (const [subpath, target] of Object.entries(exports)) {
    if (subpath === './package.json') continue;
    const field = `exports[${JSON.stringify(subpath)}]`;
    if (typeof target === 'string') {
      if (/\.(?:[cm]?js|[cm]?ts)$/.test(target))
        problems.push({ field, message: `names code without types: use import and require conditions, found ${show(target)}` });
      continue;
    }
    if (!isRecord(target)) {
      problems.push({ field, message: `must be import and require conditions, found ${show(target)}` });
      continue;
    }
    for (const [condition, typesExtension, codeExtension] of conditions) {
      const entry = target[condition];
      const types = isRecord(entry) ? entry.types : undefined;
      const code = isRecord(entry) ? entry.default : undefined;
      if (
        !isRecord(entry) ||
        Object.keys(entry)[0] !== 'types' ||
        typeof types !== 'string' ||
        !types.endsWith(typesExtension) ||
        typeof code !== 'string' ||
        !code.endsWith(codeExtension)
      ) {
        problems.push({
          field: `${field}.${condition}`,
          message: `must be { types: "…${typesExtension}", default: "…${codeExtension}" }, types first; found ${show(entry)}`,
        });
      }
    }
  }
  return problems;
}

/**
 * Checks every public package under `root`, reading each one's LICENSE and README.md.
 * @param {string} root the repository root
 * @returns {string[]} one line per problem, `<package name>: <field> <message>`
 */
export function checkRepository(root) {
  const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');
  const read = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null);
  return readPublicPackages(root).flatMap(({ folder, directory, manifest }) =>
    checkPackageMetadata({
      folder,
      manifest,
      license: read(join(directory, 'LICENSE')),
      readme: read(join(directory, 'README.md')),
      rootLicense,
    }).map(({ field, message }) => `${typeof manifest.name === 'string' ? manifest.name : `packages/${folder}`}: ${field} ${message}`),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const problems = checkRepository(root);
  if (problems.length > 0) {
    console.error(
      `Package metadata: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((line) => `  ${line}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`Package metadata: all ${readPublicPackages(root).length} public packages complete`);
}
