import { fileURLToPath } from 'node:url';
import { packageTestConfig } from '../../config/vitest.js';
import { facadeEntries } from './tsup.config.js';

const root = new URL('./', import.meta.url);

// The shared alias maps only the package's root name; the facade maps each
// subpath exactly to its own source entry too, so examples import it by name
// as a user would.
export default packageTestConfig('@papercusp/chat-protocol', root, {
  alias: Object.entries(facadeEntries).map(([entry, source]) => ({
    find: new RegExp(`^@papercusp/chat-protocol${entry === 'index' ? '' : `/${entry}`}$`),
    replacement: fileURLToPath(new URL(source, root)),
  })),
});
