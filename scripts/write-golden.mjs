#!/usr/bin/env node
// @ts-check
// Writes the golden sessions in fixtures/golden/, one conversation each:
//   <name>.jsonl          one v1 envelope per line, in the order a client
//                         received them (an overlapping replay repeats lines),
//                         as encodeChatEnvelope writes them;
//   <name>.state.json     the ChatStateV1 the reducer reaches, as
//                         JSON.stringify(state, null, 2);
//   <name>.history.json   the history page a reloaded client renders from that
//                         state: historyFromChatState, hasMoreEarlier false;
//   <name>.<dialect>.sse  the legacy projection for each built-in dialect in
//                         which every applied envelope has a legacy form, as
//                         encodeLegacyChatFrame writes it;
//   index.json            what each session is: title, scenario tags, the
//                         connections its lines arrived on, the card answers a
//                         person gave, and the legacy capture it was upgraded from.
// Each session is written by hand in scripts/golden/sessions/<name>.mjs and
// listed in scripts/golden/all-sessions.mjs; scripts/golden/render-session.mjs
// turns one into its files. `<name>.capture.sse` files are written by hand:
// legacy captures as an old backend wrote them; their sessions are what the
// legacy adapter upgrades them to.
// It runs the BUILT core and legacy-adapter packages, so build them first:
//   pnpm --filter @papercusp/chat-protocol-legacy-adapter... build && node scripts/write-golden.mjs
// `--check` writes nothing and exits 1 when a fixture differs from what the
// sessions produce. A regenerated state file must be read by a person
// before it is committed: that reading is what makes it golden.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { GOLDEN_SESSIONS } from './golden/all-sessions.mjs';
import { GOLDEN_FOLDER } from './golden/golden-folder.mjs';
import { renderSession } from './golden/render-session.mjs';

const rendered = GOLDEN_SESSIONS.map(renderSession);
/** @type {Record<string, string>} */
const files = Object.assign({}, ...rendered.map(({ files: sessionFiles }) => sessionFiles));
files['index.json'] = `${JSON.stringify(
  rendered.map(({ entry }) => entry),
  null,
  2,
)}\n`;

const handWritten = (/** @type {string} */ file) => file.endsWith('.capture.sse');
const check = process.argv.includes('--check');
let stale = 0;
for (const [file, text] of Object.entries(files)) {
  const url = new URL(file, GOLDEN_FOLDER);
  if (check) {
    let current = null;
    try {
      current = readFileSync(url, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      stale++;
      console.error(`stale: fixtures/golden/${file}`);
    }
  } else {
    writeFileSync(url, text);
    console.log(`wrote fixtures/golden/${file}`);
  }
}
for (const file of readdirSync(GOLDEN_FOLDER)) {
  if (file in files || handWritten(file)) continue;
  if (check) {
    stale++;
    console.error(`not written by this script: fixtures/golden/${file}`);
  } else {
    rmSync(new URL(file, GOLDEN_FOLDER));
    console.log(`removed fixtures/golden/${file}`);
  }
}
if (check && stale > 0) process.exit(1);
if (check) console.log('golden fixtures are up to date');
