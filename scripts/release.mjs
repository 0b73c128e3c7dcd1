#!/usr/bin/env node
// `pnpm release`: builds every package, checks its metadata, packs every public
// package into a temporary folder and checks each tarball (scripts/check-tarball.mjs),
// then publishes the versions `changeset version` wrote with `changeset publish`.
// `pnpm release --dry-run` stops before publishing: it changes nothing, anywhere.
// It owns the order of those steps; versioning is changesets' (`pnpm changeset version`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRepository } from './check-package-metadata.mjs';
import { checkTarball } from './check-tarball.mjs';
import { readPublicPackages } from './public-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dryRun = process.argv.includes('--dry-run');

/** Runs a command, its output shown; stops the release when it fails. */
function run(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`release: \`${command} ${args.join(' ')}\` failed in ${relative(root, cwd) || '.'}`);
    process.exit(1);
  }
}

/** Every file under `directory`, relative to it, with `/` separators. */
function listFiles(directory, prefix = '') {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(directory, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

run('pnpm', ['run', 'build']);

const metadataProblems = checkRepository(root);
if (metadataProblems.length > 0) {
  console.error(
    `release: package metadata is incomplete (scripts/check-package-metadata.mjs)\n${metadataProblems.map((line) => `  ${line}`).join('\n')}`,
  );
  process.exit(1);
}

const packages = readPublicPackages(root);
const versions = new Map(packages.map(({ manifest }) => [String(manifest.name), String(manifest.version)]));
const workspace = mkdtempSync(join(tmpdir(), 'chat-protocol-release-'));
const report = [];
let failed = false;
try {
  for (const { folder, directory, manifest } of packages) {
    const destination = join(workspace, folder);
    mkdirSync(destination);
    // pnpm pack resolves workspace: ranges as pnpm publish does, and packs what npm would.
    const packed = spawnSync('pnpm', ['pack', '--pack-destination', destination], { cwd: directory, encoding: 'utf8' });
    if (packed.status !== 0) {
      console.error(`release: pnpm pack failed in packages/${folder}\n${packed.stderr}`);
      process.exit(1);
    }
    const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for packages/${folder}`);
    run('tar', ['-xzf', tarball], destination);
    const contents = join(destination, 'package');
    const paths = listFiles(contents).sort();
    const problems = checkTarball({
      source: manifest,
      packed: JSON.parse(readFileSync(join(contents, 'package.json'), 'utf8')),
      paths,
      readText: (path) => readFileSync(join(contents, path), 'utf8'),
      versions,
    });
    const kilobytes = (statSync(join(destination, tarball)).size / 1024).toFixed(1);
    report.push(
      `  ${problems.length === 0 ? 'ok  ' : 'FAIL'} ${manifest.name}@${manifest.version}  ${tarball}, ${paths.length} files, ${kilobytes} KiB`,
    );
    for (const problem of problems) report.push(`         ${problem}`);
    failed ||= problems.length > 0;
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}

console.log(`\nrelease: ${packages.length} tarballs checked\n${report.join('\n')}`);
if (failed) {
  console.error('release: a tarball is not fit to publish; nothing was published');
  process.exit(1);
}
if (dryRun) {
  console.log('release: dry run, nothing published (`pnpm release` publishes these versions with `changeset publish`)');
} else {
  run('pnpm', ['exec', 'changeset', 'publish']);
}
