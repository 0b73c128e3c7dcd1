/**
 * Reading a card from untrusted input: the data check first (no getter or
 * Proxy trap runs inside a schema), then the card schema of the vocabulary.
 * It owns no card shape (`card-schemas.ts`) and judges no answer.
 */
import type * as z from 'zod/v4/mini';
import { OpenCardSnapshotV1Schema, type OpenCardSnapshotV1 } from './card-schemas.js';
import { nonDataIssue } from '../primitives/json-data.js';
import { refuse, type ParseResult } from '../primitives/result.js';
import { issuesOf } from '../primitives/zod-issues.js';

/** Why {@link parseOpenCardSnapshot} or a codec's `parseCard` refused its input. */
export type OpenCardRefusalCode = 'invalid-card';

/** Parses `input` as a card of `schema` after the data check; never throws. */
export function parseCardWith<Card>(schema: z.ZodMiniType<Card>, input: unknown): ParseResult<Card, OpenCardRefusalCode> {
  const nonData = nonDataIssue(input);
  if (nonData !== undefined) return refuse('invalid-card', 'the card is not JSON data', [nonData]);
  try {
    const parsed = schema.safeParse(input);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : refuse('invalid-card', 'the card does not match the v1 card schema', issuesOf(parsed.error));
  } catch {
    // A Proxy passes the data check (its traps forward) and throws in zod's reads.
    return refuse('invalid-card', 'the card cannot be read');
  }
}

/**
 * Parses a v1 card. Never throws: anything that is not a strict v1 card (unknown
 * keys at any level, zone-less timestamps, `expiresAt` not after `createdAt`,
 * product kinds, getters, `__proto__` keys) is `invalid-card` with issues.
 */
export function parseOpenCardSnapshot(input: unknown): ParseResult<OpenCardSnapshotV1, OpenCardRefusalCode> {
  return parseCardWith(OpenCardSnapshotV1Schema, input);
}
