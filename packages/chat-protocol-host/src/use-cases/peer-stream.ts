/**
 * The events route's `?format=`: the same v1 SSE stream (cursor, replay,
 * live tail, heartbeats, slow-reader bound) re-encoded for a peer, through
 * AG-UI's or the AI SDK's encoder (DESIGN §11, §12). It owns the re-framing
 * only: which frames exist, and when, is the transport's; what each peer can
 * carry is its interop package's (their README loss tables).
 */
import { CHAT_SSE_HEARTBEAT, formatChatCursor, parseChatSseMessage, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { createAgUiEncoder } from '@papercusp/chat-protocol-ag-ui';
import { AI_SDK_SSE_DONE, AI_SDK_UI_MESSAGE_STREAM_HEADER, createAiSdkEncoder, encodeAiSdkSseFrame } from '@papercusp/chat-protocol-ai-sdk';
import { createParser } from 'eventsource-parser';

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

// One peer's framing: the SSE messages for an envelope, and what ends the stream.
interface PeerFraming {
  readonly headers: Readonly<Record<string, string>>;
  frames(envelope: ChatEventEnvelope): readonly string[];
  /** The frames that close the stream: `ended` when the turn's terminal envelope was framed. */
  end(ended: boolean): readonly string[];
}

function agUiFraming(): PeerFraming {
  const encoder = createAgUiEncoder();
  return {
    headers: {},
    // `data: <json>`, as `@ag-ui/encoder` writes it; AG-UI's client reads only the data lines.
    frames: (envelope) => encoder.encode(envelope).events.map((event) => `data: ${JSON.stringify(event)}\n\n`),
    end: () => [],
  };
}

function aiSdkFraming(): PeerFraming {
  const encoder = createAiSdkEncoder();
  return {
    headers: { [AI_SDK_UI_MESSAGE_STREAM_HEADER.name]: AI_SDK_UI_MESSAGE_STREAM_HEADER.value },
    frames: (envelope) => {
      const encoded = encoder.encode(envelope);
      return encoded.ok ? encoded.chunks.map(encodeAiSdkSseFrame) : [];
    },
    // `[DONE]` only after the turn ended: a stream cut short closes its open part and the client may resume.
    end: (ended) => (ended ? [AI_SDK_SSE_DONE] : encoder.close().map(encodeAiSdkSseFrame)),
  };
}

const isTerminal = (envelope: ChatEventEnvelope): boolean => envelope.event.type === 'done' || envelope.event.type === 'error';

/** Options of {@link formatChatStream}. */
interface FormatChatStreamOptions {
  /**
   * Leave out the turn's `user_input`: for a peer's POST-and-stream route,
   * whose client already holds the message it sent (AG-UI would show it twice).
   */
  readonly omitUserInput?: boolean;
}

/**
 * Re-encodes a v1 events response for `format`.
 *
 * Guarantees: anything but a `200` stream (a `204`, `409`, `410` or other
 * refusal) and the `v1` format pass through unchanged; otherwise each v1
 * frame becomes the peer's SSE messages from a fresh peer encoder (so a
 * resumed connection opens the peer's run or message again), the last of
 * them carrying the v1 cursor as its `id:` so `Last-Event-ID` resumes
 * exactly as on the v1 stream; heartbeats stay comments; the AI SDK stream
 * ends with `data: [DONE]` after the turn's terminal event. A frame that is
 * not a strict v1 envelope ends the stream. Cancelling the result cancels
 * the v1 stream (its subscription is released). Never throws.
 */
export function formatChatStream(response: Response, format: ChatStreamFormat, options: FormatChatStreamOptions = {}): Response {
  if (format === 'v1' || response.status !== 200 || response.body === null) return response;
  const framing = format === 'ag-ui' ? agUiFraming() : aiSdkFraming();
  let ended = false;
  let broken = false;
  let pending: string[] = [];
  const parser = createParser({
    onEvent(message) {
      if (broken || ended) return;
      const parsed = parseChatSseMessage(message);
      if (!parsed.ok) {
        broken = true;
        return;
      }
      if (options.omitUserInput === true && parsed.value.event.type === 'user_input') return;
      const frames = framing.frames(parsed.value);
      const last = frames.length - 1;
      // The cursor rides on the envelope's last message, so a cut inside a group resends the whole group.
      frames.forEach((frame, index) => pending.push(index === last ? `id: ${formatChatCursor(parsed.value)}\n${frame}` : frame));
      if (isTerminal(parsed.value)) ended = true;
    },
    onComment() {
      pending.push(CHAT_SSE_HEARTBEAT);
    },
  });
  const encoder = new TextEncoder();
  const flushPending = (controller: TransformStreamDefaultController<Uint8Array>): void => {
    if (pending.length > 0) controller.enqueue(encoder.encode(pending.join('')));
    pending = [];
  };
  const body = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TransformStream<string, Uint8Array>({
      transform(text, controller) {
        parser.feed(text);
        flushPending(controller);
        if (broken) controller.terminate();
      },
      flush(controller) {
        pending.push(...framing.end(ended));
        flushPending(controller);
      },
    }),
  );
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(framing.headers)) headers.set(name, value);
  return new Response(body, { status: 200, headers });
}
