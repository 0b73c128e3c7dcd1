/**
 * AG-UI's chunk events (`TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK`,
 * `REASONING_MESSAGE_CHUNK`) decode exactly as the bracketed events
 * `@ag-ui/client`'s own `transformChunks` expands them to (issue 18: they
 * were refused; they are shorthand with a v1 meaning).
 */
import { transformChunks, type BaseEvent } from '@ag-ui/client';
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgUiDecoder } from './create-ag-ui-decoder.js';
import type { AgUiLoss } from '../loss.js';

const THREAD = 'conv_1';
const RUN = 'run_1';

function decodeAll(events: readonly unknown[]) {
  let seq = 0;
  const decoder = createAgUiDecoder({
    conversationId: THREAD,
    identify: ({ runId }) => ({ turnId: runId, eventId: `evt_${++seq}`, seq, occurredAt: '2026-12-01T10:00:00.000Z' }),
    toolResultStatus: () => 'succeeded',
  });
  const envelopes: ChatEventEnvelope[] = [];
  const lost: AgUiLoss[] = [];
  const codes: string[] = [];
  for (const event of events) {
    const result = decoder.decode(event);
    codes.push(result.ok ? 'ok' : result.code);
    if (result.ok) {
      envelopes.push(...result.envelopes);
      lost.push(...result.lost);
    }
  }
  return { envelopes, lost, codes, refusals: decoder.refusals() };
}

const expand = (events: readonly object[]) =>
  lastValueFrom(transformChunks()(from(events as BaseEvent[])).pipe(toArray())) as Promise<Record<string, unknown>[]>;

const chunkStream = [
  { type: 'RUN_STARTED', threadId: THREAD, runId: RUN },
  { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_hello', role: 'user', delta: 'Hello.' },
  { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_user', role: 'user', delta: 'Where is ' },
  { type: 'TEXT_MESSAGE_CHUNK', delta: 'my parcel?' },
  { type: 'REASONING_MESSAGE_CHUNK', messageId: 'rsn_1', delta: 'Look it up.' },
  { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_1', delta: 'Checking ' },
  { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_1', delta: 'now.' },
  { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'track', delta: '{"id":' },
  { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', delta: '"p_1"}' },
  { type: 'TOOL_CALL_RESULT', messageId: 'msg_r', toolCallId: 'call_1', content: 'in transit', role: 'tool' },
  { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_2', delta: 'It is in transit.' },
  { type: 'RUN_FINISHED', threadId: THREAD, runId: RUN },
];

describe('AG-UI chunk events (issue 18)', () => {
  it("decode to the same v1 envelopes as @ag-ui/client's transformChunks expansion of the same stream", async () => {
    const ours = decodeAll(chunkStream);
    const theirs = decodeAll(await expand(chunkStream));
    expect(ours.codes.every((code) => code === 'ok')).toBe(true);
    expect(ours.envelopes).toStrictEqual(theirs.envelopes);
    // A second user message in one run is a user_input core's reducer refuses (it opens its turn, DESIGN §3.3): the
    // lane that closes it is counted as misplaced-user-input, in both readings, and the run goes on (DESIGN §12).
    expect(ours.refusals).toStrictEqual({ 'misplaced-user-input': 1 });
    expect(theirs.refusals).toStrictEqual({ 'misplaced-user-input': 1 });
    expect(ours.envelopes.map(({ event }) => event)).toStrictEqual([
      { type: 'user_input', text: 'Hello.' },
      { type: 'reasoning', text: 'Look it up.' },
      { type: 'delta', text: 'Checking ' },
      { type: 'delta', text: 'now.' },
      { type: 'tool_call', callId: 'call_1', name: 'track', input: { id: 'p_1' } },
      { type: 'tool_result', callId: 'call_1', name: 'track', status: 'succeeded', summary: 'in transit' },
      { type: 'delta', text: 'It is in transit.' },
      { type: 'done', status: 'completed' },
    ]);
  });

  it('a chunk field v1 has no place for is reported lost (name, parentMessageId)', () => {
    const { lost } = decodeAll([
      { type: 'RUN_STARTED', threadId: THREAD, runId: RUN },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_1', name: 'helper', delta: 'Hi' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'track', parentMessageId: 'msg_1', delta: '{}' },
      { type: 'RUN_FINISHED', threadId: THREAD, runId: RUN },
    ]);
    expect(lost.map((loss) => loss.field)).toStrictEqual(['name', 'parentMessageId']);
  });

  it('the first chunk of a lane needs its id (and a tool call its name): invalid-event, counted', () => {
    const { codes, refusals } = decodeAll([
      { type: 'RUN_STARTED', threadId: THREAD, runId: RUN },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'orphan' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', delta: '{}' },
    ]);
    expect(codes).toStrictEqual(['ok', 'invalid-event', 'invalid-event']);
    expect(refusals).toStrictEqual({ 'invalid-event': 2 });
  });

  it('a lane that cannot close (arguments that are not JSON) is counted as invalid-tool-arguments, and the event that closed it still decodes', () => {
    const { codes, envelopes, refusals } = decodeAll([
      { type: 'RUN_STARTED', threadId: THREAD, runId: RUN },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'track', delta: '{not json' },
      { type: 'RUN_FINISHED', threadId: THREAD, runId: RUN },
    ]);
    expect(codes).toStrictEqual(['ok', 'ok', 'ok']);
    expect(envelopes.map(({ event }) => event.type)).toStrictEqual(['done']);
    expect(refusals).toStrictEqual({ 'invalid-tool-arguments': 1 });
  });

  it('what closing a lane made is never dropped: when the closing event is refused, it comes with the next accepted one, in seq order', () => {
    const { codes, envelopes } = decodeAll([
      { type: 'RUN_STARTED', threadId: THREAD, runId: RUN },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_user', role: 'user', delta: 'Hello' },
      { type: 'STEP_STARTED', stepName: 'plan' },
      { type: 'RUN_FINISHED', threadId: THREAD, runId: RUN },
    ]);
    expect(codes).toStrictEqual(['ok', 'ok', 'unsupported-event', 'ok']);
    expect(envelopes.map(({ seq, event }) => [seq, event.type])).toStrictEqual([
      [1, 'user_input'],
      [2, 'done'],
    ]);
  });
});
