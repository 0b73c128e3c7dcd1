import { encodeChatSseFrame, parseChatSseMessage, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { createFakeChatEventLog, createFakeDatabase } from '@papercusp/chat-protocol-testkit';
import { describe, expect, it } from 'vitest';
import { DONE, TURN, appendAll, envelopeAt, turnOf } from '../test/sse-test-server.js';
import { DEFAULT_CHAT_SSE_RETRY_MS, createChatSseResponse } from './create-chat-sse-response.js';

const decoder = new TextDecoder();
const request = (): Request => new Request('http://127.0.0.1/turn');
const retryField = `retry: ${DEFAULT_CHAT_SSE_RETRY_MS}\n\n`;

/** A log whose replay window and live tail the test writes by hand; `deliver` calls the subscriber synchronously. */
function handLog(frames: readonly unknown[], latestSeq = frames.length) {
  let onEnvelope: ((envelope: ChatEventEnvelope) => void) | undefined;
  const log: ChatEventLog = {
    ...createFakeChatEventLog(createFakeDatabase()),
    replayWindow: async () => ({ lowerBound: 0, latestSeq, frames: frames as ChatEventEnvelope[] }),
    subscribe: async (_request, given) => {
      onEnvelope = given;
      return () => {
        onEnvelope = undefined;
      };
    },
  };
  const deliver = (...envelopes: unknown[]): void => {
    for (const envelope of envelopes) onEnvelope?.(envelope as ChatEventEnvelope);
  };
  return { log, deliver };
}

// Waits on the body until the stream has pulled and found nothing (then only the frames themselves can feed it), runs
// `deliver`, and answers the next chunk, or 'no chunk yet' when a timer set before `deliver` (it fires before any timer
// the stream could set after it) comes first: a chunk that waits only for microtasks wins.
async function nextChunkBeforeAnyTimer(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deliver: () => void = () => undefined,
): Promise<string> {
  const reading = reader.read().then((next) => (next.done ? 'done' : decoder.decode(next.value)));
  await new Promise((resolve) => setImmediate(resolve));
  const timer = new Promise<string>((resolve) => setTimeout(() => resolve('no chunk yet'), 0));
  deliver();
  return Promise.race([reading, timer]);
}

async function chunksOf(response: Response): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of response.body as ReadableStream<Uint8Array>) chunks.push(decoder.decode(chunk));
  return chunks;
}

describe('createChatSseResponse: one strict parse per frame (issue 28, DESIGN §10)', () => {
  // A frame core's strict parser refuses (its text is not a string) but whose ids, seq and event type are sound: a
  // server that parsed it would refuse the window or cut the stream; one that trusts the log's parse on append writes
  // it as it is, and the client's strict parse is the one that refuses it.
  const unparsable = { ...envelopeAt(2), event: { type: 'delta', text: 5 } };
  const unparsableFrame = `id: turn_sse:2\nevent: delta\ndata: ${JSON.stringify(unparsable)}\n\n`;
  const clientVerdict = () => parseChatSseMessage({ id: 'turn_sse:2', event: 'delta', data: JSON.stringify(unparsable) });

  it("writes the log's replayed frames without parsing them again, as encodeChatSseFrame's bytes", async () => {
    const { log } = handLog([envelopeAt(1), unparsable, envelopeAt(3, DONE)]);
    const body = (await chunksOf(await createChatSseResponse(request(), { log, ...TURN }))).join('');
    expect(body).toBe(retryField + encodeChatSseFrame(envelopeAt(1)) + unparsableFrame + encodeChatSseFrame(envelopeAt(3, DONE)));
    expect(clientVerdict()).toMatchObject({ ok: false, code: 'invalid-event' });
  });

  it("writes live frames without parsing them again, as encodeChatSseFrame's bytes", async () => {
    const { log, deliver } = handLog([], 0);
    const response = await createChatSseResponse(request(), { log, ...TURN });
    deliver(envelopeAt(1), unparsable, envelopeAt(3, DONE));
    expect((await chunksOf(response)).join('')).toBe(
      retryField + encodeChatSseFrame(envelopeAt(1)) + unparsableFrame + encodeChatSseFrame(envelopeAt(3, DONE)),
    );
  });
});

describe('createChatSseResponse: writes batched per tick (issue 28)', () => {
  it('sends a replay window as one chunk with the retry field, not one write per frame', async () => {
    const log = createFakeChatEventLog(createFakeDatabase());
    const turn = turnOf(40, true);
    await appendAll(log, turn);
    const chunks = await chunksOf(await createChatSseResponse(request(), { log, ...TURN }));
    expect(chunks).toEqual([retryField + turn.map((envelope) => encodeChatSseFrame(envelope)).join('')]);
  });

  it('sends live frames delivered in one tick as one chunk, and a lone frame before any timer runs', async () => {
    const { log, deliver } = handLog([], 0);
    const reader = (await createChatSseResponse(request(), { log, ...TURN })).body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    expect(await nextChunkBeforeAnyTimer(reader)).toBe(retryField);
    expect(await nextChunkBeforeAnyTimer(reader, () => deliver(envelopeAt(1), envelopeAt(2), envelopeAt(3)))).toBe(
      [1, 2, 3].map((seq) => encodeChatSseFrame(envelopeAt(seq))).join(''),
    );
    expect(await nextChunkBeforeAnyTimer(reader, () => deliver(envelopeAt(4)))).toBe(encodeChatSseFrame(envelopeAt(4)));
    expect(await nextChunkBeforeAnyTimer(reader, () => deliver(envelopeAt(5, DONE)))).toBe(encodeChatSseFrame(envelopeAt(5, DONE)));
    expect(await nextChunkBeforeAnyTimer(reader)).toBe('done');
  });
});

describe('createChatSseResponse: a hostile window is still refused (issue 28)', () => {
  const foreign = (seq: number, overrides: Partial<ChatEventEnvelope>): ChatEventEnvelope => ({ ...envelopeAt(seq), ...overrides });
  const hostile: readonly [string, readonly unknown[], string][] = [
    ['frames out of seq order', [envelopeAt(1), envelopeAt(3), envelopeAt(2)], 'out-of-order-frame: frames[1] has seq 3 before seq 2'],
    [
      'a frame of another turn',
      [envelopeAt(1), foreign(2, { turnId: 'turn_other' }), envelopeAt(3)],
      'foreign-turn: frames[1] belongs to turn "turn_other"',
    ],
    [
      'a frame of another conversation',
      [envelopeAt(1), foreign(2, { conversationId: 'conv_other' }), envelopeAt(3)],
      'foreign-conversation: frames[1] belongs to conversation "conv_other"',
    ],
    [
      'a repeated event id',
      [envelopeAt(1), foreign(2, { eventId: 'evt_sse_1' }), envelopeAt(3)],
      'duplicate-frame: frames[1] repeats seq 2 or event id "evt_sse_1"',
    ],
    ['a hole', [envelopeAt(1), envelopeAt(3)], 'frame-gap: frames[1] has seq 3: seq 2 is missing'],
  ];

  it.each(hostile)('answers a window with %s 500 invalid-window naming the rule', async (_name, frames, rule) => {
    const { log } = handLog(frames, 3);
    const response = await createChatSseResponse(request(), { log, ...TURN });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ code: 'invalid-window', message: `the event log's replay window: ${rule}` });
  });

  it('answers a window whose frame is not an envelope 500 invalid-window invalid-frame', async () => {
    const { log } = handLog([envelopeAt(1), { ...envelopeAt(2), event: { type: 'delta\ndata: {}', text: 'x' } }], 2);
    const response = await createChatSseResponse(request(), { log, ...TURN });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 'invalid-window', message: expect.stringContaining('invalid-frame: frames[1]') });
  });

  it('ends the stream at a live frame of another turn, after the frames before it', async () => {
    const { log, deliver } = handLog([], 0);
    const response = await createChatSseResponse(request(), { log, ...TURN });
    deliver(envelopeAt(1), foreign(2, { turnId: 'turn_other' }), envelopeAt(3));
    expect((await chunksOf(response)).join('')).toBe(retryField + encodeChatSseFrame(envelopeAt(1)));
  });
});
