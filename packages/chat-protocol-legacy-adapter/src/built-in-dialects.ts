/**
 * The two dialects on the wire today, declared with the same public
 * `defineLegacyDialect` a host uses for its own. Each keeps its vocabulary;
 * fields v1 has and the old vocabulary lacks travel as extra fields old
 * readers ignore (they read only the fields they know), so nothing is lost.
 */
import { defineLegacyDialect } from './define-legacy-dialect.js';

// An error's v1 code and retry permission: a frame without them is a stream
// error that may not be retried (retry permission is never implied). The error
// itself is never lost, so what v1 cannot hold is dropped or normalized, never
// a reason to refuse: a code that is not a v1 id is `stream-error`, a retry
// delay out of v1's bounds or without permission is dropped (real producers
// send `{ message, code, retryAfterMs }` for a rate limit), and the message
// kind makes any text a v1 message. Strings v1 text refuses are replaced
// rather than refused, in `stderr` as in the message.
const ERROR_FIELDS = {
  message: 'message',
  code: { kind: 'id?', default: 'stream-error' },
  retryable: { kind: 'boolean?', default: false },
  retryAfterMs: { kind: 'retry-delay?', when: { retryable: true } },
} as const;

// Transport frames. A session names the producer's session under either id
// real servers write (`agentSessionId` on the operator's agent routes) or
// none: it carries no event, so its form is never a reason to refuse it.
// `resync` is the control event @papercusp/sse writes when it cannot replay
// what a reconnecting client missed (`reason` `gap` or `ahead`).
const SESSION = { transport: 'session', fields: { sessionId: 'string?', agentSessionId: 'string?' } } as const;
const HEARTBEAT = { transport: 'heartbeat' } as const;
const RESYNC = {
  transport: 'resync',
  fields: { reason: 'string?', fromId: 'number?', floorId: 'number?', maxId: 'number?' },
} as const;

/**
 * `papercup`: the SSE event name is the type and `data` is JSON, exactly the
 * vocabulary core's legacy `parseChatEvent` reads (a test holds the two to the
 * same reading), apart from transport: `heartbeat` frames carry no event, a
 * `session` is transport whatever id it carries, and `resync` is refused as
 * `resync-required`. Beyond it, `tool_result` may carry v1 `blocks` and
 * `error`, `card_closed` a `resolution`, `error` a `code`, `retryable` and
 * `retryAfterMs`, and `done` a top-level `costUsd` (read into `usage`; a
 * usage keeps only what v1 holds, see `usage?`). An
 * `error` whose data is plain text, not JSON, has that text as its message.
 */
export const papercup = /* @__PURE__ */ defineLegacyDialect({
  name: 'papercup',
  typeFrom: 'event',
  types: {
    session: SESSION,
    heartbeat: HEARTBEAT,
    resync: RESYNC,
    delta: { v1: 'delta', fields: { text: 'text' } },
    tool_call: { v1: 'tool_call', fields: { name: 'name', input: 'json?', callId: 'call-id' } },
    tool_result: {
      v1: 'tool_result',
      fields: {
        name: 'name',
        callId: 'call-id',
        ok: { kind: 'outcome', v1: 'status' },
        summary: 'string?',
        blocks: 'json?',
        error: 'string?',
      },
    },
    provenance: { v1: 'provenance', fields: { engine: 'text', model: 'text', accountRoute: 'nullable-string?' } },
    card: { v1: 'card', fields: { card: 'card' } },
    card_closed: { v1: 'card_closed', fields: { correlationId: 'text', resolution: 'string?' } },
    state: { v1: 'state', fields: { version: 'version', snapshot: 'json?' } },
    // The operator's agent routes write a run's cost at the top of `done`.
    done: {
      v1: 'done',
      fields: { stopReason: 'string?', usage: 'usage?', costUsd: { kind: 'number?', v1: 'usage', key: 'costUsd' } },
      fixed: { status: 'completed' },
    },
    // Papercusp/agent-chat writes `event: error` with the message as plain text.
    error: { v1: 'error', fields: ERROR_FIELDS, plainText: 'message', uncleanText: 'replace' },
    navigate: { v1: 'navigate', fields: { href: 'text' } },
  },
});

/**
 * `scout`: the type is the `type` field of the JSON data (the SSE event name
 * is absent or `message`), the vocabulary of Papercusp's shared `ChatEvent`.
 * `token {content}` is `delta {text}` and `tool_start {tool}` is
 * `tool_call {name}` (with an optional `callId` and `input`); `state` and
 * `navigate` read as in papercup. The frames @papercusp/sse writes itself
 * are named by their SSE event, without a `type` in the data: `heartbeat`
 * (transport), `error` (a failed setup or replay), `done` (a late join to a
 * finished stream) and `resync`. Scout has no tool results or provenance;
 * `products`, `broaden`, `cart_mutate`… are product events, and decode as
 * `unsupported-event`.
 */
export const scout = /* @__PURE__ */ defineLegacyDialect({
  name: 'scout',
  typeFrom: { field: 'type', eventNames: ['heartbeat', 'error', 'done', 'resync'] },
  types: {
    session: SESSION,
    heartbeat: HEARTBEAT,
    resync: RESYNC,
    token: { v1: 'delta', fields: { content: { kind: 'text', v1: 'text' } } },
    tool_start: { v1: 'tool_call', fields: { tool: { kind: 'name', v1: 'name' }, callId: 'call-id', input: 'json?' } },
    card: { v1: 'card', fields: { card: 'card' } },
    card_closed: { v1: 'card_closed', fields: { correlationId: 'text', resolution: 'string?' } },
    state: { v1: 'state', fields: { version: 'version', snapshot: 'json?' } },
    navigate: { v1: 'navigate', fields: { href: 'text' } },
    error: { v1: 'error', fields: ERROR_FIELDS, uncleanText: 'replace' },
    done: { v1: 'done', fields: { stopReason: 'string?', usage: 'usage?' }, fixed: { status: 'completed' } },
  },
});
