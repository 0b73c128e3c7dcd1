import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { CHAT_SSE_HEARTBEAT } from '@papercusp/chat-protocol-core';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { createFakeChatEventLog, createFakeDatabase, type FakeDatabase } from '@papercusp/chat-protocol-testkit';
import { beforeEach, describe, expect, it } from 'vitest';
import { TURN, appendAll, countSubscriptions, envelopeAt, eventually, turnOf, type CountingLog } from '../test/sse-test-server.js';
import { createChatSseResponse, type ChatSseFraming, type CreateChatSseResponseOptions } from './create-chat-sse-response.js';

// `framing` (issue 25): the caller's own frames, one encode per envelope, on the transport's cursor, replay and tail.

let database: FakeDatabase;
let log: CountingLog;

beforeEach(() => {
  database = createFakeDatabase();
  log = countSubscriptions(createFakeChatEventLog(database));
});

/** A framing that writes two messages per delta, one for `done`, none for seq 2, and records what it was asked. */
function recordingFraming(asked: string[], overrides: Partial<ChatSseFraming> = {}): ChatSseFraming {
  return {
    encode(envelope: ChatEventEnvelope) {
      asked.push(`encode ${envelope.seq}`);
      if (envelope.seq === 2) return [];
      if (envelope.event.type === 'done') return ['data: finished\n\n'];
      return [`data: ${envelope.seq}a\n\n`, `data: ${envelope.seq}b\n\n`];
    },
    end(ended: boolean) {
      asked.push(`end ${String(ended)}`);
      return [`data: end ${String(ended)}\n\n`];
    },
    ...overrides,
  };
}

function open(headers: Record<string, string>, options: Partial<CreateChatSseResponseOptions>): Promise<Response> {
  return createChatSseResponse(new Request('http://127.0.0.1/turn', { headers }), { log, ...TURN, ...options });
}

describe('createChatSseResponse framing: the caller writes each envelope once (issue 25)', () => {
  it("writes the caller's messages, the v1 cursor as the id of each envelope's last one, no retry:, then end(true)", async () => {
    await appendAll(log, turnOf(4, true));
    const asked: string[] = [];
    const response = await open({}, { framing: recordingFraming(asked) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe(
      'data: 1a\n\nid: turn_sse:1\ndata: 1b\n\n' +
        'data: 3a\n\nid: turn_sse:3\ndata: 3b\n\n' +
        'id: turn_sse:4\ndata: finished\n\n' +
        'data: end true\n\n',
    );
    expect(asked).toEqual(['encode 1', 'encode 2', 'encode 3', 'encode 4', 'end true']);
    expect(log.liveSubscriptions()).toBe(0);
  });

  it('resumes from Last-Event-ID with the same v1 cursors, and answers 204 at the end of a finished turn', async () => {
    await appendAll(log, turnOf(4, true));
    const asked: string[] = [];
    const resumed = await open({ 'last-event-id': 'turn_sse:3' }, { framing: recordingFraming(asked) });
    expect(await resumed.text()).toBe('id: turn_sse:4\ndata: finished\n\ndata: end true\n\n');
    expect(asked).toEqual(['encode 4', 'end true']);
    const atEnd = await open({ 'last-event-id': 'turn_sse:4' }, { framing: recordingFraming([]) });
    expect(atEnd.status).toBe(204);
    expect(await atEnd.text()).toBe('');
  });

  it('tails live frames through the framing and keeps heartbeats as comments', async () => {
    await appendAll(log, turnOf(1, false));
    const response = await open({}, { framing: recordingFraming([]), heartbeatMs: 5 });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(CHAT_SSE_HEARTBEAT)) text += decoder.decode((await reader.read()).value);
    await appendAll(log, [envelopeAt(2), envelopeAt(3), envelopeAt(4, { type: 'done', status: 'completed' })]);
    for (let next = await reader.read(); next.done !== true; next = await reader.read()) text += decoder.decode(next.value);
    expect(text.startsWith('data: 1a\n\nid: turn_sse:1\ndata: 1b\n\n')).toBe(true);
    expect(text.split(CHAT_SSE_HEARTBEAT).join('')).toBe(
      'data: 1a\n\nid: turn_sse:1\ndata: 1b\n\ndata: 3a\n\nid: turn_sse:3\ndata: 3b\n\nid: turn_sse:4\ndata: finished\n\ndata: end true\n\n',
    );
    expect(log.liveSubscriptions()).toBe(0);
  });

  it('asks end(false) when the stream ends before the terminal envelope (the subscription is lost)', async () => {
    await appendAll(log, turnOf(1, false));
    const asked: string[] = [];
    const response = await open({}, { framing: recordingFraming(asked) });
    const reading = response.text();
    await eventually(() => log.liveSubscriptions() === 1);
    database.restart();
    expect(await reading).toBe('data: 1a\n\nid: turn_sse:1\ndata: 1b\n\ndata: end false\n\n');
    expect(asked).toEqual(['encode 1', 'end false']);
  });

  it('does not ask end when the reader cancels the body', async () => {
    await appendAll(log, turnOf(1, false));
    const asked: string[] = [];
    const response = await open({}, { framing: recordingFraming(asked) });
    await response.body?.cancel();
    expect(asked).toEqual(['encode 1']);
    expect(log.liveSubscriptions()).toBe(0);
  });

  it.each([
    // The held live frames 4 and 5 were encoded before replayed 3 threw: they are dropped, never sent after the hole.
    ['a replayed envelope', 3, 2, [1, 2, 4, 5, 3]],
    ['a live envelope', 1, 2, [1, 2, 3]],
  ])('ends the stream cleanly after the frames before it when encode throws on %s, without end', async (_name, stored, early, encoded) => {
    const frames = turnOf(5, true);
    await appendAll(log, frames.slice(0, stored));
    // Frames appended while the window is read reach the stream first as live frames held behind the replay.
    const racing: ChatEventLog = {
      ...log,
      replayWindow: async (request) => {
        const window = await log.replayWindow(request);
        await appendAll(log, frames.slice(stored, stored + early));
        return window;
      },
    };
    const asked: string[] = [];
    const framing = recordingFraming(asked, {
      encode(envelope) {
        asked.push(`encode ${envelope.seq}`);
        if (envelope.seq === 3) throw new Error('the encoder broke');
        return [`data: ${envelope.seq}\n\n`];
      },
    });
    // Each frame is 24 bytes: a read-ahead of 48 takes frames 1 and 2 only, and the two live frames still fit behind them.
    const response = await open({}, { log: racing, framing, maxUnreadBytes: 96 });
    const reading = response.text();
    if (stored < 3) await appendAll(log, frames.slice(stored + early));
    expect(await reading).toBe('id: turn_sse:1\ndata: 1\n\nid: turn_sse:2\ndata: 2\n\n');
    expect(asked).toEqual(encoded.map((seq) => `encode ${seq}`));
    expect(log.liveSubscriptions()).toBe(0);
  });

  it("closes without the end messages when end throws, and refuses a framing without encode as the host's bug", async () => {
    await appendAll(log, turnOf(1, true));
    const framing = recordingFraming([], {
      end() {
        throw new Error('no end');
      },
    });
    expect(await (await open({}, { framing })).text()).toBe('id: turn_sse:1\ndata: finished\n\n');
    await expect(open({}, { framing: {} as ChatSseFraming })).rejects.toThrow(
      new TypeError('createChatSseResponse: options.framing must have an encode function'),
    );
  });
});
