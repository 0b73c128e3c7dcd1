// The packages this repository publishes: every folder under packages/ whose
// package.json is not `private`. The metadata check and the release read this
// one list, so a new package is checked and released the moment it exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {object} PublicPackage
 * @property {string} folder the folder under packages/, e.g. `chat-protocol-core`
 * @property {string} directory its absolute path
 * @property {Record<string, unknown>} manifest its parsed package.json
 */

/**
 * Lists the public packages under `<root>/packages`, sorted by folder name.
 * Folders without a package.json are skipped; a package.json that is not JSON throws.
 * @param {string} root the repository root
 * @returns {PublicPackage[]}
 */
export function readPublicPackages(root) {
  const packagesDirectory = join(root, 'packages');
  return readdirSync(packagesDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packagesDirectory, entry.name, 'package.json')))
    .map((entry) => {
      const directory = join(packagesDirectory, entry.name);
      return { folder: entry.name, directory, manifest: JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) };
    })
    .filter(({ manifest }) => manifest.private !== true)
    .sort((left, right) => (left.folder < right.folder ? -1 : 1));
}
