import { CHAT_EVENT_TYPES_V1, encodeChatSseFrame } from '@papercusp/chat-protocol-core';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { everyHostileArgument } from '../../../test-support/hostile-values.js';
import { sampleTurn } from '../test/frame-server.js';
import { CHAT_SSE_EVENT_NAMES, parseChatMessageEvent } from './message-event.js';

// A MessageEvent as EventSource dispatches it: `type` is the `event:` name, `lastEventId` the `id:`.
function asEventSourceWould(frame: string): MessageEvent {
  const messages: EventSourceMessage[] = [];
  createParser({ onEvent: (message) => messages.push(message) }).feed(frame);
  const [message] = messages;
  return new MessageEvent(message?.event ?? 'message', { data: message?.data, lastEventId: message?.id ?? '' });
}

describe('EventSource users (DESIGN §10: named events, parseChatMessageEvent)', () => {
  it('CHAT_SSE_EVENT_NAMES lists every v1 event type, the event: name of every frame', () => {
    expect(CHAT_SSE_EVENT_NAMES).toEqual(CHAT_EVENT_TYPES_V1);
    for (const envelope of sampleTurn()) expect(CHAT_SSE_EVENT_NAMES).toContain(asEventSourceWould(encodeChatSseFrame(envelope)).type);
  });

  it('parses each frame of a turn as EventSource delivers it', () => {
    for (const envelope of sampleTurn())
      expect(parseChatMessageEvent(asEventSourceWould(encodeChatSseFrame(envelope)))).toEqual({ ok: true, value: envelope });
  });

  it('refuses an event whose name or id does not match the envelope, and data that is not text', () => {
    const [envelope] = sampleTurn();
    const frame = encodeChatSseFrame(envelope!);
    const data = frame.split('\n')[2]!.slice('data: '.length);
    expect(parseChatMessageEvent(new MessageEvent('message', { data, lastEventId: 'turn_1:1' }))).toMatchObject({
      ok: false,
      code: 'event-mismatch',
    });
    expect(parseChatMessageEvent(new MessageEvent('user_input', { data, lastEventId: 'turn_1:9' }))).toMatchObject({
      ok: false,
      code: 'id-mismatch',
    });
    expect(parseChatMessageEvent(new MessageEvent('user_input', { data: { not: 'text' }, lastEventId: 'turn_1:1' }))).toMatchObject({
      ok: false,
      code: 'invalid-json',
    });
  });

  it("tells a frame named error from EventSource's own connection error: a plain Event is not-a-message-event (issue 24)", () => {
    const failed = sampleTurn().map((envelope, index, all) =>
      index === all.length - 1
        ? { ...envelope, event: { type: 'error' as const, code: 'provider-failed', message: 'The provider failed', retryable: false } }
        : envelope,
    );
    const frame = failed[failed.length - 1]!;
    const delivered = asEventSourceWould(encodeChatSseFrame(frame));
    expect(delivered.type).toBe('error');
    expect(parseChatMessageEvent(delivered)).toEqual({ ok: true, value: frame });
    expect(parseChatMessageEvent(new Event('error') as unknown as MessageEvent)).toEqual({
      ok: false,
      code: 'not-a-message-event',
      message: "the event carries no data: not a message (EventSource's own error or open event)",
    });
  });

  it('never throws, on any hostile value', () => {
    for (const hostile of everyHostileArgument([new MessageEvent('delta')])) {
      expect(parseChatMessageEvent(hostile.args[0] as MessageEvent).ok, hostile.label).toBe(false);
    }
  });
});
