/**
 * v1 card responses ⇄ AG-UI 1.0 `resume` entries. A card that a turn leaves
 * open is an AG-UI interrupt (its id is the card's correlation id); the answer
 * travels back in the next run's `RunAgentInput.resume`. A submit is
 * `resolved` with the value as payload, a cancel is `cancelled`, and a decline
 * (which AG-UI cannot say) is `cancelled` with `metadata.papercusp.action`.
 */
import { CardResponseSchema, type CardResponse, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { AG_UI_METADATA_KEY } from './ag-ui-event.js';
import { ownField, readPlainData } from './read-plain-data.js';

/** An AG-UI 1.0 resume entry, typed locally. */
export interface AgUiResumeEntry {
  readonly interruptId: string;
  readonly status: 'resolved' | 'cancelled';
  readonly payload?: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The AG-UI resume entry that answers the interrupt of a v1 card.
 *
 * Guarantees: total over `CardResponse`; never mutates its input;
 * {@link cardResponseFromResumeEntry} reads the entry back to an equal response.
 */
export function resumeEntryFromCardResponse(response: CardResponse): AgUiResumeEntry {
  switch (response.action) {
    case 'submit':
      return { interruptId: response.correlationId, status: 'resolved', payload: response.value };
    case 'cancel':
      return { interruptId: response.correlationId, status: 'cancelled' };
    case 'decline':
      return {
        interruptId: response.correlationId,
        status: 'cancelled',
        metadata: {
          [AG_UI_METADATA_KEY]: response.reason === undefined ? { action: 'decline' } : { action: 'decline', reason: response.reason },
        },
      };
  }
}

/** Refusal codes of {@link cardResponseFromResumeEntry}. */
export type CardResponseFromResumeEntryRefusalCode = 'invalid-resume-entry' | 'missing-payload' | 'invalid-card-response';

/** Result of {@link cardResponseFromResumeEntry}. */
export type CardResponseFromResumeEntryResult =
  { readonly ok: true; readonly value: CardResponse } | ChatRefusal<CardResponseFromResumeEntryRefusalCode>;

/**
 * Reads an AG-UI resume entry (unknown input) as a v1 card response.
 *
 * Guarantees: never throws, whatever the entry (a throwing getter, a Proxy
 * whose traps throw, at the top or inside `payload` or `metadata`: each is
 * `invalid-resume-entry`); the entry is read once, as plain data, through its
 * own fields only (an inherited `interruptId` or `status` is not the entry's);
 * a `resolved` entry without a payload (or with an `undefined` one) is
 * `missing-payload` (no answer is invented); the result passes core's strict
 * `CardResponseSchema` (else `invalid-card-response`); whether the value fits
 * the card is the host's `validateCardResponse`, not this function's.
 */
export function cardResponseFromResumeEntry(entry: unknown): CardResponseFromResumeEntryResult {
  const read = readPlainData(entry);
  if (read === undefined) return refuse('invalid-resume-entry', 'a resume entry is plain data: no getters, Proxies or class instances');
  const record = read.value;
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return refuse('invalid-resume-entry', 'a resume entry is an object');
  const fields = record as Readonly<Record<string, unknown>>;
  const correlationId = ownField(fields, 'interruptId');
  const status = ownField(fields, 'status');
  if (typeof correlationId !== 'string' || (status !== 'resolved' && status !== 'cancelled')) {
    return refuse('invalid-resume-entry', 'a resume entry has a string interruptId and a status of resolved or cancelled');
  }
  let candidate: unknown;
  if (status === 'resolved') {
    const payload = ownField(fields, 'payload');
    if (payload === undefined) return refuse('missing-payload', 'a resolved resume entry without a payload states no answer');
    candidate = { action: 'submit', correlationId, value: payload };
  } else {
    const carried = readCarried(ownField(fields, 'metadata'));
    const action = carried === undefined ? undefined : ownField(carried, 'action');
    const reason = carried === undefined ? undefined : ownField(carried, 'reason');
    if (action === 'decline') {
      candidate = reason === undefined ? { action: 'decline', correlationId } : { action: 'decline', correlationId, reason };
    } else {
      candidate = { action: 'cancel', correlationId };
    }
  }
  const parsed = CardResponseSchema.safeParse(candidate);
  if (!parsed.success) return refuse('invalid-card-response', 'the resume entry is not a valid v1 card response');
  return { ok: true, value: parsed.data };
}

/**
 * The `metadata.papercusp` record of an AG-UI value already read as plain data
 * (see `readPlainData`), when it is one: read through own fields only.
 */
export function readCarried(metadata: unknown): Readonly<Record<string, unknown>> | undefined {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  const carried = ownField(metadata as Readonly<Record<string, unknown>>, AG_UI_METADATA_KEY);
  if (typeof carried !== 'object' || carried === null || Array.isArray(carried)) return undefined;
  return carried as Readonly<Record<string, unknown>>;
}
