#!/usr/bin/env node
// `pnpm demo`: lists the golden sessions the testkit ships and replays them
// through the built core package, prints two of them as a person would see
// them, shows how the reducer absorbs the overlapping replay of a resumed
// connection and refuses a gap with the cursor to replay after, upgrades the
// captured legacy sessions in fixtures/legacy to v1, then writes a golden
// session as an SSE capture and runs the testkit's `chat-protocol verify` on
// it, as written and with two frames lost. No network, no clock, no randomness.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { applyChatEvent, createChatState, encodeChatSseFrame, formatChatCursor } from '@papercusp/chat-protocol-core';
import { createChatFrameDecoder, papercup, scout } from '@papercusp/chat-protocol-legacy-adapter';
import { listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol-testkit';

function heading(text, underline = '=') {
  console.log(`\n${text}\n${underline.repeat(text.length)}`);
}

function indent(text, prefix = '    ') {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : prefix + line))
    .join('\n');
}

/** A golden session as the testkit ships it, replayed by core's reducer. */
function golden(name) {
  const replayed = replayGoldenSession(name);
  if (!replayed.ok) throw new Error(`${name}: ${replayed.code}: ${replayed.message}`);
  return replayed.value;
}

/** Applies envelopes in order and counts outcomes; stops at the first refusal. */
function deliver(state, envelopes) {
  const counts = { applied: 0, duplicate: 0 };
  for (const envelope of envelopes) {
    const result = applyChatEvent(state, envelope);
    if (!result.ok) return { state, counts, refusal: result };
    counts[result.outcome]++;
    state = result.state;
  }
  return { state, counts, refusal: null };
}

function describeTurn(turn) {
  const provenance = turn.provenance === null ? 'unknown model' : `${turn.provenance.model} via ${turn.provenance.engine}`;
  console.log(`  turn ${turn.turnId}`);
  console.log(`  produced by ${provenance}`);
  if (turn.reasoning !== '') console.log(`  reasoning:\n${indent(turn.reasoning)}`);
  console.log(`  text:\n${indent(turn.text || '(none)')}`);

  console.log(turn.toolCalls.length === 0 ? '  tool calls: none' : '  tool calls:');
  for (const call of turn.toolCalls) {
    const { result } = call;
    if (result === null) {
      console.log(`    - ${call.name}: no result (still open when the turn ended)`);
      continue;
    }
    const detail = [result.summary, result.error].filter(Boolean).join(': ');
    console.log(`    - ${call.name}: ${result.status}${detail === '' ? '' : ` (${detail})`}`);
    for (const block of result.blocks ?? []) {
      const sources = (block.sources ?? []).map((source) => source.label ?? source.ref);
      const cited = sources.length === 0 ? '' : `, citing ${sources.join('; ')}`;
      console.log(`        ${block.kind} block${cited}`);
    }
  }

  console.log(turn.cards.length === 0 ? '  cards: none' : '  cards:');
  for (const { card, closed, resolution } of turn.cards) {
    const options = 'options' in card.presentation ? ` [${card.presentation.options.map((option) => option.label).join(' / ')}]` : '';
    const outcome = closed ? `closed, ${resolution ?? 'resolution not reported'}` : 'open';
    console.log(`    - ${card.presentation.kind} card "${card.prompt}"${options}: ${outcome}`);
  }
  if (turn.hostState !== null) console.log(`  host state v${turn.hostState.version}: ${JSON.stringify(turn.hostState.snapshot)}`);

  const ending = turn.error === null ? (turn.stopReason ?? 'no stop reason') : `${turn.error.code}: ${turn.error.message}`;
  console.log(`  final status: ${turn.status} (${ending})`);
  if (turn.usage !== null) console.log(`  usage: ${JSON.stringify(turn.usage)}`);
}

// ---------------------------------------------------------------------------

heading('@papercusp/chat-protocol demo');

heading('Golden sessions: every capability, replayed', '-');
const sessions = listGoldenSessions();
for (const { name, title, legacyDialects } of sessions) {
  const session = golden(name);
  const same = session.expectedStateJson === `${JSON.stringify(session.state, null, 2)}\n`;
  const legacy = legacyDialects.length === 0 ? '' : `; legacy: ${legacyDialects.join(', ')}`;
  console.log(`  ${name}: ${title}.`);
  console.log(
    `    ${session.envelopes.length} envelopes, ${session.state.turns.length} turn(s), pinned state ${same ? 'matches' : 'DIFFERS'}${legacy}`,
  );
}
const covered = new Set(sessions.flatMap((session) => session.covers));
console.log(
  `  ${sessions.length} sessions covering ${covered.size} tags (events, tool and turn outcomes, card kinds × resolutions, scenarios)`,
);

for (const name of ['tools-and-sources', 'cancelled-with-late-result']) {
  const session = golden(name);
  heading(`Session ${name}`, '-');
  for (const turn of session.state.turns) describeTurn(turn);
}

// An overlapping replay: the client applied seq 1–7, the connection dropped,
// and it reconnected with the cursor it had stored, seq 5.
const resumed = golden('resumed-after-disconnect');
heading('Overlapping replay: absorbed', '-');
for (const [index, connection] of resumed.connections.entries()) {
  const seqs = connection.envelopes.map((envelope) => envelope.seq);
  const from = connection.lastEventId === null ? 'no Last-Event-ID' : `Last-Event-ID ${connection.lastEventId}`;
  console.log(`  connection ${index + 1} (${from}): seq ${seqs[0]}–${seqs.at(-1)}`);
}
const duplicates = resumed.outcomes.filter((outcome) => outcome === 'duplicate').length;
console.log(
  `  delivered ${resumed.envelopes.length} envelopes: ${resumed.envelopes.length - duplicates} applied, ${duplicates} duplicates ignored`,
);
console.log(`  text:\n${indent(resumed.state.turns[0].text)}`);
console.log(
  `  state identical to the pinned one: ${JSON.stringify(resumed.state) === JSON.stringify(resumed.expectedState) ? 'yes, no repeated words' : 'NO'}`,
);

const sample = 'tools-and-sources';
const { envelopes, state: cleanState } = golden(sample);
const turnId = envelopes[0].turnId;

// A gap: 6 and 7 were lost, 8 arrives.
heading('Gap: refused, with the cursor to replay after', '-');
const beforeGap = deliver(createChatState(envelopes[0].conversationId), envelopes.slice(0, 5));
console.log(`  ${sample}: the client applied seq 1–5, then seq 8 arrives (6 and 7 were lost).`);
const gap = applyChatEvent(beforeGap.state, envelopes[7]);
if (gap.ok) throw new Error('expected a refusal');
console.log(`  refusal: ${gap.code}, expectedSeq ${gap.expectedSeq}`);
console.log(`  message: ${gap.message}`);
console.log(`  replay cursor (Last-Event-ID): ${formatChatCursor(gap.replayAfter)}`);
const healed = deliver(beforeGap.state, envelopes.slice(gap.replayAfter.seq));
console.log(`  after replaying from the cursor: ${healed.counts.applied} applied, final status ${healed.state.turns[0].status}`);
console.log(`  state identical to the clean replay: ${JSON.stringify(healed.state) === JSON.stringify(cleanState) ? 'yes' : 'NO'}`);

// Legacy captures: what an old backend wrote, read as v1 by one decoder per connection.
heading('Legacy sessions: upgraded to v1', '-');
const LEGACY = new URL('../fixtures/legacy/', import.meta.url);
for (const [dialect, capture] of [
  [papercup, 'papercup/refund-lookup'],
  [scout, 'scout/product-search'],
]) {
  const messages = [];
  createParser({ onEvent: (message) => messages.push(message) }).feed(readFileSync(new URL(`${capture}.sse`, LEGACY), 'utf8'));
  const legacyTurnId = `turn_${capture.replace('/', '_')}`;
  const decoder = createChatFrameDecoder({
    dialect,
    context: {
      conversationId: 'conv_legacy_1',
      turnId: legacyTurnId,
      // The host's identities: event ids from the turn and seq, times from its clock (fixed here).
      identify: ({ seq }) => ({ eventId: `${legacyTurnId}.evt_${seq}`, occurredAt: `2026-11-30T09:00:${String(seq).padStart(2, '0')}Z` }),
      callId: ({ name, seq }) => `call_${name}_${seq}`,
    },
  });
  const refused = [];
  const upgraded = [];
  for (const message of messages) {
    const result = decoder.decode(message);
    if (!result.ok) refused.push(`${result.code} (${result.message})`);
    else if (result.kind === 'envelope') upgraded.push(result.envelope);
  }
  const counts = decoder.counts();
  console.log(`  ${capture}.sse, ${dialect.name} dialect: ${messages.length} SSE messages`);
  console.log(`  ${counts.legacy} upgraded to v1, ${counts.transport} transport only (session, heartbeat), ${counts.unsupported} refused`);
  for (const refusal of refused) console.log(`    refused: ${refusal}`);
  const { state, refusal } = deliver(createChatState('conv_legacy_1'), upgraded);
  if (refusal !== null) throw new Error(`${capture}: ${refusal.code}: ${refusal.message}`);
  for (const turn of state.turns) describeTurn(turn);
  console.log('');
}

// The whole loop: a host writes its SSE stream to a file, and the testkit's
// bin checks it against the contract (exit code 0 only when clean).
heading('chat-protocol verify: a capture written by the host', '-');
const VERIFY_BIN = fileURLToPath(new URL('../packages/chat-protocol-testkit/bin/chat-protocol.js', import.meta.url));
const captureFolder = mkdtempSync(join(tmpdir(), 'chat-protocol-demo-'));
try {
  const frames = envelopes.map((envelope) => encodeChatSseFrame(envelope));
  const captures = [
    ['as written', `${sample}.sse`, frames],
    ['with seq 6 and 7 lost', `${sample}.lossy.sse`, frames.filter((_frame, index) => index !== 5 && index !== 6)],
  ];
  for (const [label, file, written] of captures) {
    writeFileSync(join(captureFolder, file), written.join(''));
    const run = spawnSync(process.execPath, [VERIFY_BIN, 'verify', file], { cwd: captureFolder, encoding: 'utf8' });
    console.log(`  ${label}: $ chat-protocol verify ${file}`);
    console.log(indent(`${run.stdout}${run.stderr}`.trimEnd()));
    console.log(`    (exit code ${run.status})`);
  }
} finally {
  rmSync(captureFolder, { recursive: true, force: true });
}
