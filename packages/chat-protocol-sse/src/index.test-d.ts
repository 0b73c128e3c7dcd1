import type { ChatEventEnvelope, ChatStateV1 } from '@papercusp/chat-protocol-core';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { expectTypeOf } from 'vitest';
import {
  createChatSseResponse,
  followChatTurn,
  parseChatMessageEvent,
  readChatStream,
  type ChatStreamEndReason,
  type ChatStreamItem,
  type FollowChatTurnItem,
} from './index.js';

declare const log: ChatEventLog;
declare const request: Request;

// The server is web-standard: a Request in, a Response out.
expectTypeOf(createChatSseResponse(request, { log, conversationId: 'conv_1', turnId: 'turn_1' })).resolves.toEqualTypeOf<Response>();

// The client's items discriminate on `type`; an envelope item carries a v1 envelope.
for await (const item of readChatStream({ url: 'https://example.test/turns/turn_1' })) {
  expectTypeOf(item).toEqualTypeOf<ChatStreamItem>();
  if (item.type === 'envelope') expectTypeOf(item.envelope).toEqualTypeOf<ChatEventEnvelope>();
  if (item.type === 'ended') expectTypeOf(item.reason).toEqualTypeOf<ChatStreamEndReason>();
}

for await (const item of followChatTurn({ url: 'https://example.test/turns/turn_1', conversationId: 'conv_1' })) {
  expectTypeOf(item).toEqualTypeOf<FollowChatTurnItem>();
  if (item.type === 'state') expectTypeOf(item.state).toEqualTypeOf<ChatStateV1>();
}

// Node's MessageEvent (the DOM's has the same fields) fits the helper.
declare const message: MessageEvent;
expectTypeOf(parseChatMessageEvent(message).ok).toEqualTypeOf<boolean>();

// @ts-expect-error: the server needs the turn it streams
void createChatSseResponse(request, { log, conversationId: 'conv_1' });
