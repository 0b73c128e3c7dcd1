// What the release checks in each packed tarball before anything is published
// (issue 14): the license and readme, the built ESM, CommonJS, types and source
// maps every entry names, nothing of the workspace leaking in (sources, tests,
// fixtures, configs), and internal ranges resolved from `workspace:` to the
// versions being released. It owns judging one tarball's file list and
// manifest; packing and publishing are scripts/release.mjs's.

/**
 * @typedef {object} PackedPackage
 * @property {Record<string, unknown>} source the package.json in the workspace
 * @property {Record<string, unknown>} packed the package.json inside the tarball
 * @property {readonly string[]} paths every file in the tarball, relative to its `package/` folder
 * @property {(path: string) => string} readText reads one of `paths` as UTF-8
 * @property {ReadonlyMap<string, string>} versions the version of every workspace package, by name
 */

const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];
// Workspace files that never belong in a tarball: sources, tests, fixtures,
// examples, build and test configs, caches.
const LEAKS = [
  /(?:^|\/)(?:src|test|tests|__tests__|fixtures|examples|coverage|node_modules|\.turbo)\//,
  /\.test(?:-d)?\.[cm]?[jt]sx?$/,
  /(?:^|\/)(?:tsconfig[^/]*\.json|tsup\.config\.ts|vitest\.config\.ts)$/,
  /\.tsbuildinfo$|\.tgz$/,
];

const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The range a `workspace:` range becomes in a packed manifest, as pnpm resolves
 * it (`workspace:^` is `^<version>`, `workspace:~` is `~<version>`,
 * `workspace:*` is the version itself); any other range is left as written.
 * @param {string} range
 * @param {string | undefined} version the version of the package it names
 * @returns {string}
 */
export function resolveWorkspaceRange(range, version) {
  if (!range.startsWith('workspace:')) return range;
  const rest = range.slice('workspace:'.length);
  if (rest === '^' || rest === '~') return `${rest}${version}`;
  if (rest === '*') return `${version}`;
  return rest;
}

/** Every file an exports map, `main`, `module`, `types` or `bin` names, without `./`. */
function namedFiles(manifest) {
  const named = new Set();
  const visit = (target) => {
    if (typeof target === 'string') named.add(target.replace(/^\.\//, ''));
    else if (isRecord(target)) Object.values(target).forEach(visit);
  };
  visit(manifest.exports);
  for (const field of ['main', 'module', 'types']) visit(manifest[field]);
  visit(typeof manifest.bin === 'string' ? manifest.bin : (manifest.bin ?? null));
  return named;
}

/**
 * Checks one packed tarball. Returns every problem found, each a sentence naming
 * the file or field at fault (empty when the tarball may be published); never throws.
 * @param {PackedPackage} input
 * @returns {string[]}
 */
export function checkTarball({ source, packed, paths, readText, versions }) {
  const problems = [];
  const files = new Set(paths);
  for (const required of ['LICENSE', 'README.md', 'package.json']) {
    if (!files.has(required)) problems.push(`${required} is not in the tarball`);
  }
  if (packed.version !== source.version)
    problems.push(`version is ${JSON.stringify(packed.version)} in the tarball, ${JSON.stringify(source.version)} in the workspace`);
  if (packed.version === '0.0.0') problems.push('version is 0.0.0: run `changeset version` first (a ^0.0.0 range admits only 0.0.0)');

  for (const field of DEPENDENCY_FIELDS) {
    const sourceRanges = isRecord(source[field]) ? source[field] : {};
    const packedRanges = isRecord(packed[field]) ? packed[field] : {};
    for (const [name, range] of Object.entries(sourceRanges)) {
      const expected = resolveWorkspaceRange(String(range), versions.get(name));
      if (packedRanges[name] !== expected)
        problems.push(`${field}.${name} is ${JSON.stringify(packedRanges[name])}, expected ${JSON.stringify(expected)}`);
    }
    for (const [name, range] of Object.entries(packedRanges)) {
      if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} still has the workspace range ${JSON.stringify(range)}`);
    }
  }

  const named = namedFiles(packed);
  for (const path of named) {
    if (!files.has(path)) problems.push(`${path} is named by package.json but not in the tarball`);
  }
  // Each entry ships all four builds, even one package.json names only in part.
  const stems = new Set(
    [...named].map((path) => path.match(/^(dist\/.+)\.(?:js|cjs|d\.ts|d\.cts)$/)?.[1]).filter((stem) => stem !== undefined),
  );
  for (const stem of stems) {
    for (const twin of [`${stem}.js`, `${stem}.cjs`, `${stem}.d.ts`, `${stem}.d.cts`]) {
      if (!files.has(twin) && !named.has(twin)) problems.push(`${twin} is missing: every entry ships ESM, CommonJS and the types of both`);
    }
  }
  for (const path of paths) {
    if (/\.[cm]?js$/.test(path) && path.startsWith('dist/')) {
      if (files.has(`${path}.map`)) problems.push(...checkSourceMap(`${path}.map`, readText));
      else problems.push(`${path}.map is missing`);
    }
    if (LEAKS.some((pattern) => pattern.test(path))) problems.push(`${path} is a workspace file and must not be published`);
  }
  return problems;
}

/** A map is only useful without `src` if it carries each source's text. */
function checkSourceMap(path, readText) {
  try {
    const map = JSON.parse(readText(path));
    const sources = Array.isArray(map.sources) ? map.sources : null;
    if (sources === null) return [`${path} has no sources list`];
    const contents = Array.isArray(map.sourcesContent) ? map.sourcesContent : [];
    const missing = sources.filter((_, index) => typeof contents[index] !== 'string');
    return missing.length === 0 ? [] : [`${path} lacks the text of ${missing.join(', ')} (sourcesContent)`];
  } catch {
    return [`${path} is not a JSON source map`];
  }
}
