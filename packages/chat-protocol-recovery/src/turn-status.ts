/**
 * The turn-status response: what a host answers when a client asks "did my
 * turn arrive, and where is it?" with the turn id it minted. It owns the schema
 * and a reader that never throws; the delivery state a person sees is derived
 * from it in `delivery.ts`.
 */
import { CHAT_TURN_STATUSES, isChatId, isZonedTimestamp, type ChatIssue, type ParseResult } from '@papercusp/chat-protocol-core';
import * as z from 'zod/v4/mini';

/** Statuses a turn-status response may carry: core's turn statuses, and `not-found` (the host never stored the turn). */
// Inside a pure IIFE: bundlers keep a call whose argument spreads an array (the spread may run an iterator), and the
// schema below with it, in a bundle that never reads either (bench `client-imports`).
export const TURN_STATUS_VALUES = /* @__PURE__ */ (() => Object.freeze([...CHAT_TURN_STATUSES, 'not-found'] as const))();

// The declaration file names this interface, whose heritage every zod of the peer range declares;
// zod 4.1+ types `z.int()` as `ZodMiniInt`, which zod 3.25 and 4.0 lack (core's portable-zod.ts).
interface IntegerSchema extends z.ZodMiniNumberFormat {}

/**
 * Schema of a turn-status response: strict, `lastSeq` is the seq of the turn's latest frame when the host has one,
 * and `run` the run that owns a running turn and its lease deadline (§6 rule 12), when the host reports it.
 */
export const TurnStatusResponseSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    turnId: z.string().check(z.refine(isChatId, 'not a v1 id')),
    status: z.enum(TURN_STATUS_VALUES),
    // `-0` is not a seq: JSON writes it as `0` (issue 12).
    lastSeq: z.optional(
      (z.int() as IntegerSchema).check(
        z.nonnegative(),
        z.refine((seq) => !Object.is(seq, -0), 'expected a non-negative integer, not -0'),
      ),
    ),
    run: z.optional(
      z.strictObject({
        runId: z.string().check(z.refine(isChatId, 'not a v1 id')),
        leaseExpiresAt: z.string().check(z.refine(isZonedTimestamp, 'not an RFC 3339 timestamp with an offset')),
      }),
    ),
  }))();

/** A turn-status response. */
export type TurnStatusResponse = z.infer<typeof TurnStatusResponseSchema>;

/** Refusal codes of {@link parseTurnStatusResponse}. */
export type ParseTurnStatusResponseRefusalCode = 'invalid-json' | 'invalid-turn-status';

/**
 * Reads a turn-status response from parsed JSON or its JSON text. Strict:
 * unknown keys are refused. Never throws; the value is a fresh object.
 */
export function parseTurnStatusResponse(input: unknown): ParseResult<TurnStatusResponse, ParseTurnStatusResponseRefusalCode> {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return { ok: false, code: 'invalid-json', message: 'the response is not JSON' };
    }
  }
  try {
    const parsed = TurnStatusResponseSchema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issues: ChatIssue[] = parsed.error.issues.map((issue) => ({
      path: issue.path.filter((key): key is string | number => typeof key !== 'symbol'),
      message: issue.message,
    }));
    return { ok: false, code: 'invalid-turn-status', message: 'not a turn-status response', issues };
  } catch {
    return { ok: false, code: 'invalid-turn-status', message: 'the response cannot be read' };
  }
}
