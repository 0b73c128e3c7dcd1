/**
 * The delivery state a person sees beside a turn they sent, derived by pure
 * functions from what the client knows: the answer to a send or resend (which
 * carries the turn id as `Idempotency-Key`), or the answer to a status request.
 * It owns the mapping only; retry timing and the UI are the client's.
 */
import { parseTurnStatusResponse } from './turn-status.js';

/** The delivery states, in the order a turn usually moves through them. */
export const DELIVERY_STATES = /* @__PURE__ */ Object.freeze(['waiting', 'sending', 'sent', 'still-working', 'not-sent', 'check'] as const);

/**
 * `waiting`: sealed, not sent yet (offline, queued). `sending`: a request is out.
 * `sent`: the host stored the turn. `still-working`: the host has it and is still
 * running it. `not-sent`: the host did not store it, and resending with the same id
 * is safe; or its run died and the turn was interrupted, and the person can send it
 * again (as a new turn, with a new id). `check`: it may or may not have arrived; ask for its status.
 */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What happened to the latest send or resend of a turn. `status` is the HTTP status of the answer. */
export type ResendAnswer =
  | { readonly type: 'not-attempted' }
  | { readonly type: 'attempting' }
  | { readonly type: 'response'; readonly status: number }
  | { readonly type: 'no-response' };

/** What happened to the latest status request. `body` is the parsed JSON the host answered. */
export type StatusAnswer =
  { readonly type: 'attempting' } | { readonly type: 'response'; readonly body: unknown } | { readonly type: 'no-response' };

/**
 * The delivery state after a send or resend.
 *
 * Guarantees: 2xx is `sent`; 409 (the same idempotency key is still being
 * processed) is `still-working`; 408, 429 and 503 (not processed, retry later)
 * and every other 4xx (refused) are `not-sent`; any other 5xx, a 1xx/3xx, a
 * status that is not an HTTP status, and no response at all are `check`, because
 * the host may have stored the turn. Never throws: an answer that cannot be
 * read (null, a throwing getter, a Proxy) is `check`.
 */
export function deliveryStateFromResend(answer: ResendAnswer): DeliveryState {
  const read = readAnswer(answer, 'status');
  switch (read.type) {
    case 'not-attempted':
      return 'waiting';
    case 'attempting':
      return 'sending';
    case 'response': {
      const status = read.field as number;
      if (!Number.isInteger(status) || status < 100 || status > 599) return 'check';
      if (status >= 200 && status < 300) return 'sent';
      if (status === 409) return 'still-working';
      if (status === 503 || (status >= 400 && status < 500)) return 'not-sent';
      return 'check';
    }
    default:
      return 'check';
  }
}

/**
 * The delivery state after a status request for `turnId`.
 *
 * Guarantees: the body is read with `parseTurnStatusResponse`; a body that does
 * not parse, names another turn, or says `needs-reconciliation` (an effect's
 * outcome is unknown) is `check`, as is no response; `not-found` is `not-sent`;
 * `running` is `still-working`; `interrupted` (its run died and the turn was
 * ended for it, §6 rule 12) is `not-sent`: the person can send it again, as a new
 * turn; every other terminal status (`completed`, `cancelled`, `failed`) is
 * `sent`: the turn arrived, and what became of it is the chat's to show. Never
 * throws: an answer that cannot be read is `check`.
 */
export function deliveryStateFromStatus(turnId: string, answer: StatusAnswer): DeliveryState {
  const read = readAnswer(answer, 'body');
  if (read.type === 'attempting') return 'sending';
  if (read.type !== 'response') return 'check';
  const parsed = parseTurnStatusResponse(read.field);
  if (!parsed.ok || parsed.value.turnId !== turnId) return 'check';
  switch (parsed.value.status) {
    case 'not-found':
    case 'interrupted':
      return 'not-sent';
    case 'running':
      return 'still-working';
    case 'needs-reconciliation':
      return 'check';
    default:
      return 'sent';
  }
}

// An answer is read once, and one that cannot be read (null, a throwing getter,
// a Proxy) is no answer at all: `check`, since the turn may have arrived.
function readAnswer(answer: unknown, field: 'status' | 'body'): { readonly type: unknown; readonly field: unknown } {
  try {
    const { type, [field]: value } = answer as Readonly<Record<string, unknown>>;
    return { type, field: value };
  } catch {
    return { type: 'no-response', field: undefined };
  }
}
