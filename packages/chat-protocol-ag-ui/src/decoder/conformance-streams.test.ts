/**
 * AG-UI's own published conformance corpus (fixtures/conformance, see its README) through the decoder (issue 18):
 * per fixture, what every event decodes to or why it is refused, and what is reported lost, pinned by hand from
 * the stream and the mapping in the README, never computed from the decoder's own output.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { applyChatEvent, createChatState, parseChatEnvelope, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { countingHost } from '../../test/counting-host.js';
import { createAgUiDecoder } from './create-ag-ui-decoder.js';
import type { DecodeAgUiEventRefusalCode } from './decoder-types.js';

interface ConformanceFixture {
  readonly name: string;
  readonly stream: readonly Record<string, unknown>[];
  readonly expect: {
    readonly outcome: 'completed' | 'failed';
    readonly messages?: readonly { readonly role?: string; readonly content?: unknown }[];
    readonly state?: unknown;
  };
}

/**
 * Per fixture, per event of its stream: `-` (accepted, no envelope: a bracket or the run's opening), the v1 event
 * types of its envelopes joined by `+`, or `!code` (refused); `lost` lists the fields each event could not carry;
 * `statuses` the `done` statuses when not `completed`; `laneRefusals` refusals counted when a chunk lane closed.
 */
interface Expected {
  readonly decoded: readonly string[];
  readonly lost?: Readonly<Record<number, readonly string[]>>;
  readonly statuses?: readonly string[];
  readonly laneRefusals?: Readonly<Partial<Record<DecodeAgUiEventRefusalCode, number>>>;
}

const directory = new URL('../../fixtures/conformance/', import.meta.url);
const fixtures: readonly ConformanceFixture[] = readdirSync(directory)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(readFileSync(new URL(file, directory), 'utf8')) as ConformanceFixture);

// prettier-ignore
const EXPECTED: Readonly<Record<string, Expected>> = {
  'activity-delta-missing-target-tolerated': { decoded: ['-', '-', 'delta', '-', '!unsupported-event', 'done'] },
  'activity-replace-false-preserves': { decoded: ['-', '!unsupported-event', '!unsupported-event', 'done'] },
  'activity-snapshot-then-delta': { decoded: ['-', '!unsupported-event', '!unsupported-event', 'done'] },
  'chunk-conflicting-role-fatal': { decoded: ['-', '-', '!invalid-event', 'user_input+done'], lost: { 0: ['protocolVersion'] } },
  // RUN_FINISHED closes the lane over the refused chunk: its arguments `{"q":` are not JSON, counted as such.
  'chunk-conflicting-tool-name-fatal': {
    decoded: ['-', '-', '!invalid-event', 'done'],
    lost: { 0: ['protocolVersion'] },
    laneRefusals: { 'invalid-tool-arguments': 1 },
  },
  'chunk-expansion-assembles': { decoded: ['-', 'delta', 'delta', 'done'], lost: { 0: ['protocolVersion'] } },
  'chunk-repeat-identical-accepted': { decoded: ['-', '-', 'delta', '-', '-', '-', 'tool_call+done'], lost: { 0: ['protocolVersion'], 4: ['parentMessageId'], 5: ['parentMessageId'] } },
  'combining-mark-split-from-its-base': { decoded: ['-', '-', 'delta', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'conformant-run-is-quiet': { decoded: ['-', '!unsupported-event', '-', 'delta', 'delta', '-', 'state', '!unsupported-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'content-without-start-fatal': { decoded: ['-', '!unknown-message', 'done'], lost: { 0: ['protocolVersion'] } },
  'current-peer-declares-protocol-version': { decoded: ['-', 'done'], lost: { 0: ['protocolVersion'] } },
  'custom-closes-chunk-stream-fatal': { decoded: ['-', 'delta', '!unsupported-event', '!invalid-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'encrypted-value-unknown-entity-tolerated': { decoded: ['-', '-', 'delta', '-', '!unsupported-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'era-0-0-39-flattens-content': { decoded: ['-', '-', 'delta', '-', 'done'] },
  'era-0-0-45-thinking-translated': { decoded: ['-', '!invalid-event', '!invalid-event', '!invalid-event', '!invalid-event', '!invalid-event', '-', 'delta', '-', 'done'] },
  'era-0-0-47-upgrades-binary-content': { decoded: ['-', '-', 'delta', '-', 'done'] },
  'era-0-0-57-subagent-dropped-with-warning': { decoded: ['-', '!unsupported-event', '-', 'delta', '-', '!unsupported-event', 'done'], lost: { 2: ['subagentRunId'], 3: ['subagentRunId'], 4: ['subagentRunId'] } },
  'era-current-peer-keeps-modern-content': { decoded: ['-', '!unsupported-event', '!unsupported-event', 'done'] },
  'era-pinned-peer-omits-protocol-version': { decoded: ['-', 'done'] },
  'event-after-run-finished-fatal': { decoded: ['-', 'done', '!outside-run'], lost: { 0: ['protocolVersion'] } },
  'first-chunk-missing-id-fatal': { decoded: ['-', '!invalid-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'first-event-not-run-started-fatal': { decoded: ['!outside-run'] },
  'first-tool-chunk-missing-name-fatal': { decoded: ['-', '!invalid-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'late-run-error-after-finished-run-continues': { decoded: ['-', '-', 'delta', '-', 'done', '!outside-run'], lost: { 0: ['protocolVersion'] } },
  'malformed-known-field-fatal': { decoded: ['-', '-', '!invalid-event', '-', 'done'] },
  'messages-snapshot-reconciles-by-id': { decoded: ['-', '-', 'delta', '-', '-', 'delta', '-', '!unsupported-event', 'done'] },
  'metadata-merges-last-write-wins': { decoded: ['-', '-', 'delta', '-', 'done'], lost: { 1: ['metadata.a', 'metadata.b', 'metadata.trace'], 2: ['metadata.b', 'metadata.c', 'metadata.trace'] } },
  'multibyte-text-assembles': { decoded: ['-', '-', 'delta', 'delta', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'nested-run-started-fatal': { decoded: ['-', '!outside-run'], lost: { 0: ['protocolVersion'] } },
  'open-message-at-run-finished-fatal': { decoded: ['-', '-', 'delta', '!unclosed-brackets'], lost: { 0: ['protocolVersion'] } },
  'open-metadata-preserved': { decoded: ['-', '-', 'delta', '-', 'done'], lost: { 1: ['metadata.acme.vendor/traceId', 'metadata.acme.vendor/parentSpan'], 2: ['metadata.acme.vendor/chunkIndex'] } },
  'open-object-patch-op-extras': { decoded: ['-', 'state', 'state', 'done'] },
  'producer-declares-newer-version-warns': { decoded: ['-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'producer-declares-same-version-quiet': { decoded: ['-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'producer-declares-uninterpretable-version-warns': { decoded: ['-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'raw-and-custom-pass-through': { decoded: ['-', '-', 'delta', '!unsupported-event', 'delta', '-', '!unsupported-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'raw-does-not-close-chunk-stream': { decoded: ['-', 'delta', '!unsupported-event', 'delta', 'done'], lost: { 0: ['protocolVersion'] } },
  'reasoning-discipline-verified': { decoded: ['-', '!unknown-message', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'reasoning-message-wrong-role-fatal': { decoded: ['-', '!invalid-event', '!unknown-message', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'reasoning-span-and-message': { decoded: ['-', '-', '-', 'reasoning', 'reasoning', '-', '-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'reopen-closed-message-appends': { decoded: ['-', '-', 'delta', '-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'run-error-first-run-continues': { decoded: ['!outside-run'] },
  'run-error-then-new-run-continues': { decoded: ['-', 'error', '-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'], 2: ['protocolVersion'] } },
  'run-finished-cancelled-outcome-accepted': { decoded: ['-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] }, statuses: ['cancelled'] },
  // The interrupt names no v1 card this run asked: the turn stops unfinished, never "completed", and awaits nothing.
  'run-finished-interrupt-outcome-accepted': {
    decoded: ['-', '-', 'delta', '-', 'done'],
    lost: { 0: ['protocolVersion'], 4: ['outcome.interrupts[0]'] },
    statuses: ['interrupted'],
  },
  'run-finished-with-active-subagent-fatal': { decoded: ['-', '!unsupported-event', '-', 'delta', '-', '!unclosed-brackets'], lost: { 0: ['protocolVersion'], 2: ['subagentRunId'] } },
  'state-delta-applies': { decoded: ['-', 'state', 'state', 'done'] },
  'state-delta-unappliable-warns-and-keeps': { decoded: ['-', 'state', '!invalid-patch', 'done'] },
  'state-delta-unknown-op-dropped': { decoded: ['-', 'state', '!invalid-patch', 'done'] },
  'state-falsy-snapshot-applies': { decoded: ['-', 'state', 'state', 'done'] },
  'state-null-snapshot-applies': { decoded: ['-', 'state', 'state', 'done'] },
  'state-snapshot-replaces': { decoded: ['-', 'state', 'state', 'done'] },
  'step-finished-without-start-fatal': { decoded: ['-', '!unsupported-event'], lost: { 0: ['protocolVersion'] } },
  'subagent-attribution-mismatch-fatal': { decoded: ['-', '-', '-', '!invalid-event', '!unclosed-brackets'], lost: { 0: ['protocolVersion'], 1: ['subagentRunId'] } },
  'subagent-finished-unstarted-fatal': { decoded: ['-', '!unsupported-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'subagent-started-missing-name-fatal': { decoded: ['-', '!unsupported-event', '!unsupported-event', 'done'], lost: { 0: ['protocolVersion'] } },
  'subagent-terminal-closes-open-chunk-stream': { decoded: ['-', '!unsupported-event', 'delta', 'delta', '!unsupported-event', 'done'], lost: { 0: ['protocolVersion'], 2: ['subagentRunId'], 3: ['subagentRunId'] } },
  'subagent-unannounced-attribution-accepted': { decoded: ['-', '-', 'delta', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'], 1: ['subagentRunId'], 2: ['subagentRunId'], 4: ['subagentRunId'] } },
  'tool-call-metadata-lands-on-the-call': { decoded: ['-', '-', '-', 'tool_call', 'done'], lost: { 1: ['parentMessageId', 'metadata.provider', 'metadata.attempt'], 2: ['metadata.bytes'], 3: ['metadata.attempt'] } },
  'tool-call-triad-assembles': { decoded: ['-', '-', 'delta', '-', '-', '-', '-', 'tool_call', 'done'], lost: { 0: ['protocolVersion'], 4: ['parentMessageId'] } },
  'tool-result-file-source-passes-through': { decoded: ['-', '-', '-', 'tool_call', '!unknown-tool-status', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'], 1: ['parentMessageId'] } },
  'tool-result-parts-mint-tool-message': { decoded: ['-', '-', '-', 'tool_call', '!unknown-tool-status', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'], 1: ['parentMessageId'] } },
  'triad-assembles-message': { decoded: ['-', '-', 'delta', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
  'truncated-run-reported-as-completed': { decoded: ['-', '-', 'delta', 'delta', '-'], lost: { 0: ['protocolVersion'] } },
  'two-sequential-runs-accumulate': { decoded: ['-', '-', 'delta', '-', 'done', '-', '-', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'], 5: ['protocolVersion'] } },
  'unknown-enum-value-role-fatal': { decoded: ['-', '!invalid-event', '!unknown-message', '!unknown-message', 'done'] },
  'unknown-event-dropped': { decoded: ['-', '-', 'delta', '!invalid-event', 'delta', '-', 'done'] },
  'unknown-outcome-array-fatal': { decoded: ['-', '!invalid-event'] },
  'unknown-outcome-stripped': { decoded: ['-', 'done'], lost: { 1: ['outcome'] } },
  'unknown-part-in-message-list': { decoded: ['-', '!unsupported-event', 'done'] },
  'unknown-property-stripped': { decoded: ['-', '-', 'delta', '-', 'done'], lost: { 2: ['futureProp'] } },
  'zwj-sequence-split-at-the-joiner': { decoded: ['-', '-', 'delta', 'delta', '-', 'done'], lost: { 0: ['protocolVersion'] } },
};

// Across the corpus: events read, events accepted (with or without envelopes), and refusals by code (the README table;
// `invalid-tool-arguments` is the lane RUN_FINISHED closes in chunk-conflicting-tool-name-fatal).
const TOTALS = {
  events: 369,
  accepted: 311,
  'unsupported-event': 25,
  'invalid-event': 16,
  'unknown-message': 5,
  'outside-run': 5,
  'unclosed-brackets': 3,
  'invalid-patch': 2,
  'unknown-tool-status': 2,
  'invalid-tool-arguments': 1,
};

interface Decoded {
  readonly decoded: string[];
  readonly lost: Record<number, string[]>;
  readonly envelopes: ChatEventEnvelope[];
  readonly refusals: Partial<Record<DecodeAgUiEventRefusalCode, number>>;
}

// Every event is decoded, refused or not: the decoder keeps going, as a host reading a live stream does.
function decodeFixture(fixture: ConformanceFixture): Decoded {
  const thread = fixture.stream.find((event) => typeof event['threadId'] === 'string')?.['threadId'];
  const decoder = createAgUiDecoder(countingHost(typeof thread === 'string' ? thread : 'thread'));
  const decoded: string[] = [];
  const lost: Record<number, string[]> = {};
  const envelopes: ChatEventEnvelope[] = [];
  fixture.stream.forEach((event, index) => {
    const result = decoder.decode(event);
    if (!result.ok) {
      decoded.push(`!${result.code}`);
      return;
    }
    decoded.push(result.envelopes.length === 0 ? '-' : result.envelopes.map((envelope) => envelope.event.type).join('+'));
    if (result.lost.length > 0) lost[index] = result.lost.map((loss) => loss.field);
    envelopes.push(...result.envelopes);
  });
  return { decoded, lost, envelopes, refusals: decoder.refusals() };
}

function refusalCounts(decoded: readonly string[], extra: Expected['laneRefusals'] = {}): Record<string, number> {
  const counts: Record<string, number> = { ...extra };
  for (const row of decoded) if (row.startsWith('!')) counts[row.slice(1)] = (counts[row.slice(1)] ?? 0) + 1;
  return counts;
}

const textOf = (envelopes: readonly ChatEventEnvelope[], type: 'delta' | 'reasoning') =>
  envelopes.map((envelope) => (envelope.event.type === type ? envelope.event.text : '')).join('');

describe("createAgUiDecoder: AG-UI's published conformance streams (issue 18)", () => {
  it('pins every fixture of the corpus, and only those', () => {
    expect(fixtures.map((fixture) => fixture.name)).toStrictEqual(Object.keys(EXPECTED).sort());
    expect(fixtures).toHaveLength(72);
  });

  for (const fixture of fixtures) {
    const expected = EXPECTED[fixture.name] ?? { decoded: [] };
    it(`${fixture.name} (AG-UI: ${fixture.expect.outcome}): each event decodes or is refused as pinned; the envelopes pass the strict parser and core's reducer`, () => {
      const result = decodeFixture(fixture);
      expect(result.decoded).toStrictEqual(expected.decoded);
      expect(result.lost).toStrictEqual(expected.lost ?? {});
      expect(result.refusals).toStrictEqual(refusalCounts(expected.decoded, expected.laneRefusals));
      const statuses = result.envelopes.flatMap((envelope) => (envelope.event.type === 'done' ? [envelope.event.status] : []));
      expect(statuses).toStrictEqual(expected.statuses ?? expected.decoded.filter((row) => row.endsWith('done')).map(() => 'completed'));
      let state = createChatState(result.envelopes[0]?.conversationId ?? 'thread');
      for (const envelope of result.envelopes) {
        expect(parseChatEnvelope(envelope)).toStrictEqual({ ok: true, value: envelope });
        const applied = applyChatEvent(state, envelope);
        expect(applied.ok).toBe(true);
        if (applied.ok) state = applied.state;
      }
    });
  }

  it("refuses at least one event, with a typed code, of every stream AG-UI's clients must reject (expect.outcome failed)", () => {
    const failed = fixtures.filter((fixture) => fixture.expect.outcome === 'failed');
    expect(failed).toHaveLength(20);
    for (const fixture of failed)
      expect(
        decodeFixture(fixture).decoded.some((row) => row.startsWith('!')),
        fixture.name,
      ).toBe(true);
  });

  // v1 has no message snapshot: the text a MESSAGES_SNAPSHOT would have corrected stays as it was streamed.
  const TEXT_DIFFERS = new Set(['messages-snapshot-reconciles-by-id']);
  // The retired pre-1.0 THINKING_* shapes are refused (invalid-event): their reasoning is not carried.
  const REASONING_DIFFERS = new Set(['era-0-0-45-thinking-translated']);
  it("assembles exactly the assistant and reasoning text AG-UI's own expectation names (multibyte, combining marks, ZWJ split across deltas)", () => {
    let checked = 0;
    for (const fixture of fixtures) {
      const messages = fixture.expect.messages;
      if (fixture.expect.outcome !== 'completed' || messages === undefined || TEXT_DIFFERS.has(fixture.name)) continue;
      const { envelopes } = decodeFixture(fixture);
      const content = (role: string) =>
        messages.map((message) => (message.role === role && typeof message.content === 'string' ? message.content : '')).join('');
      expect(textOf(envelopes, 'delta'), fixture.name).toBe(content('assistant'));
      expect(textOf(envelopes, 'reasoning'), fixture.name).toBe(REASONING_DIFFERS.has(fixture.name) ? '' : content('reasoning'));
      checked += 1;
    }
    expect(checked).toBe(37);
    const text = (name: string) =>
      textOf(decodeFixture(fixtures.find((fixture) => fixture.name === name) as ConformanceFixture).envelopes, 'delta');
    expect(text('combining-mark-split-from-its-base')).toBe('cafe\u0301');
    expect(text('zwj-sequence-split-at-the-joiner')).toBe('\u{1F468}\u200D\u{1F469}');
    expect(text('multibyte-text-assembles')).toBe('こんにちは، مرحبا');
  });

  // v1 applies a patch all or nothing: a patch with an operation RFC 6902 does not define is refused whole.
  const STATE_DIFFERS = new Set(['state-delta-unknown-op-dropped']);
  it("ends with the host state AG-UI's own expectation names", () => {
    let checked = 0;
    for (const fixture of fixtures) {
      if (fixture.expect.outcome !== 'completed' || !('state' in fixture.expect) || STATE_DIFFERS.has(fixture.name)) continue;
      const states = decodeFixture(fixture).envelopes.flatMap((envelope) =>
        envelope.event.type === 'state' ? [envelope.event.snapshot] : [],
      );
      expect(states.at(-1), fixture.name).toStrictEqual(fixture.expect.state);
      checked += 1;
    }
    expect(checked).toBe(7);
  });

  it("decodes a generic TOOL_CALL_RESULT only through the host's explicit mapping: its text becomes the summary and its document part is reported lost", () => {
    for (const name of ['tool-result-parts-mint-tool-message', 'tool-result-file-source-passes-through']) {
      const fixture = fixtures.find((candidate) => candidate.name === name) as ConformanceFixture;
      const asked: unknown[] = [];
      const decoder = createAgUiDecoder(
        countingHost(String(fixture.stream[0]?.['threadId']), {
          toolResultStatus: (request) => {
            asked.push(request.toolName);
            return 'succeeded';
          },
        }),
      );
      const results = fixture.stream.map((event) => decoder.decode(event));
      const result = results[4];
      expect(result?.ok && result.envelopes.map((envelope) => envelope.event), name).toStrictEqual([
        {
          type: 'tool_result',
          callId: String(fixture.stream[4]?.['toolCallId']),
          name: String(fixture.stream[1]?.['toolCallName']),
          status: 'succeeded',
          summary: name === 'tool-result-parts-mint-tool-message' ? 'Invoice INV-2291 attached.' : 'Uploaded the invoice.',
        },
      ]);
      expect(result?.ok && result.lost.map((loss) => loss.field), name).toStrictEqual(['content[1]']);
      expect(asked).toStrictEqual([String(fixture.stream[1]?.['toolCallName'])]);
      expect(decoder.refusals()).toStrictEqual({});
    }
  });

  it('reports no terminal for a run whose stream stops before RUN_FINISHED (never a fabricated completion)', () => {
    const truncated = fixtures.find((fixture) => fixture.name === 'truncated-run-reported-as-completed') as ConformanceFixture;
    expect(decodeFixture(truncated).envelopes.map((envelope) => envelope.event.type)).toStrictEqual(['delta', 'delta']);
  });

  it('totals: events accepted and refused by code across the corpus (the README table)', () => {
    const totals: Record<string, number> = {};
    for (const fixture of fixtures) {
      const { decoded, refusals } = decodeFixture(fixture);
      totals['events'] = (totals['events'] ?? 0) + decoded.length;
      totals['accepted'] = (totals['accepted'] ?? 0) + decoded.filter((row) => !row.startsWith('!')).length;
      for (const [code, count] of Object.entries(refusals)) totals[code] = (totals[code] ?? 0) + (count ?? 0);
    }
    expect(totals).toStrictEqual(TOTALS);
  });
});
