/**
 * The events route's `?format=`: the same turn stream (cursor, replay, live
 * tail, heartbeats, slow-reader bound: the transport's) framed for a peer
 * through AG-UI's or the AI SDK's encoder (DESIGN §11, §12), each envelope
 * encoded once from the envelope as the transport's `framing`. It owns the
 * peers' framing only: which frames exist, and when, is the transport's; what
 * each peer can carry is its interop package's (their README loss tables).
 */
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { createAgUiEncoder } from '@papercusp/chat-protocol-ag-ui';
import { AI_SDK_SSE_DONE, AI_SDK_UI_MESSAGE_STREAM_HEADER, createAiSdkEncoder, encodeAiSdkSseFrame } from '@papercusp/chat-protocol-ai-sdk';
import type { ChatSseFraming } from '@papercusp/chat-protocol-sse';

/** The stream formats of the events route: `v1` (the default), AG-UI 1.0 events, the AI SDK 6 UI message stream. */
export type ChatStreamFormat = 'v1' | 'ag-ui' | 'ai-sdk';

/** The query parameter that names the format. */
const CHAT_STREAM_FORMAT_QUERY_PARAMETER = 'format';

const FORMATS: readonly ChatStreamFormat[] = ['v1', 'ag-ui', 'ai-sdk'];

/** The format a request asks for: absent is `v1`; `null` for a name that is not one of {@link ChatStreamFormat}. */
export function readChatStreamFormat(request: Request): ChatStreamFormat | null {
  const given = new URL(request.url).searchParams.get(CHAT_STREAM_FORMAT_QUERY_PARAMETER);
  if (given === null) return 'v1';
  return FORMATS.find((format) => format === given) ?? null;
}

/** A peer's framing of one stream, and the headers its answer adds. */
export interface PeerStreamFraming {
  readonly framing: ChatSseFraming;
  readonly headers: Readonly<Record<string, string>>;
}

/** Options of {@link peerStreamFraming}. */
export interface PeerStreamFramingOptions {
  /**
   * Leave out the turn's `user_input`: for a peer's POST-and-stream route,
   * whose client already holds the message it sent (AG-UI would show it twice).
   */
  readonly omitUserInput?: boolean;
}

function agUiFraming(): ChatSseFraming {
  const encoder = createAgUiEncoder();
  // `data: <json>`, as `@ag-ui/encoder` writes it; AG-UI's client reads only the data lines.
  return { encode: (envelope) => encoder.encode(envelope).events.map((event) => `data: ${JSON.stringify(event)}\n\n`) };
}

function aiSdkFraming(): ChatSseFraming {
  const encoder = createAiSdkEncoder();
  return {
    encode: (envelope) => {
      const encoded = encoder.encode(envelope);
      return encoded.ok ? encoded.chunks.map(encodeAiSdkSseFrame) : [];
    },
    // `[DONE]` only after the turn ended: a stream cut short closes its open part and the client may resume.
    end: (ended) => (ended ? [AI_SDK_SSE_DONE] : encoder.close().map(encodeAiSdkSseFrame)),
  };
}

/**
 * A fresh peer framing for one stream. Guarantees: each envelope becomes the
 * peer's SSE messages from a fresh peer encoder (so a resumed connection opens
 * the peer's run or message again), the transport putting the v1 cursor on
 * the last one as its `id:`, so `Last-Event-ID` resumes exactly as on the v1
 * stream; heartbeats stay comments; the AI SDK stream ends with `data: [DONE]`
 * after the turn's terminal event and carries its UI message stream header.
 */
export function peerStreamFraming(format: Exclude<ChatStreamFormat, 'v1'>, options: PeerStreamFramingOptions = {}): PeerStreamFraming {
  const peer = format === 'ag-ui' ? agUiFraming() : aiSdkFraming();
  const omitted = (envelope: ChatEventEnvelope): boolean => options.omitUserInput === true && envelope.event.type === 'user_input';
  const framing: ChatSseFraming = {
    encode: (envelope) => (omitted(envelope) ? [] : peer.encode(envelope)),
    ...(peer.end === undefined ? {} : { end: peer.end }),
  };
  const headers = format === 'ai-sdk' ? { [AI_SDK_UI_MESSAGE_STREAM_HEADER.name]: AI_SDK_UI_MESSAGE_STREAM_HEADER.value } : {};
  return { framing, headers };
}
