/**
 * Reading the decoder's inputs once: a chunk as its JSON text carries it, and the host's context when the decoder is
 * made. Getters, `toJSON` and Proxy traps run only here, so every later read is of plain data and a value checked is
 * the value used. It owns no rule about what a chunk means.
 */
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type { AiSdkDecoderContext } from './decoder-types.js';

/** A chunk or a v1 event as plain data (the decoder's copy). */
export type Fields = Readonly<Record<string, unknown>>;

const CONTEXT_FIELDS = ['conversationId', 'turnId', 'firstSeq', 'identify', 'awaitingCards'] as const;

/** The context as the decoder uses it, read once. */
export interface DecoderHost {
  readonly conversationId: string;
  readonly turnId: string;
  readonly firstSeq: number;
  readonly identify: AiSdkDecoderContext['identify'];
  readonly awaitingCards: readonly string[];
}

/**
 * Reads the context once. Throws `TypeError` when it cannot be read, has no `identify` function, or has
 * `awaitingCards` that are not strings: a host misconfigured, not an input to refuse.
 */
export function readDecoderHost(context: AiSdkDecoderContext): DecoderHost {
  const read = typeof context === 'object' && context !== null ? readFields(context, CONTEXT_FIELDS) : undefined;
  if (typeof read?.identify !== 'function') throw new TypeError('createAiSdkDecoder needs a context with an identify function');
  const { conversationId, turnId, identify } = read;
  const awaitingCards = readAwaitingCards(read.awaitingCards);
  return { conversationId, turnId, identify, awaitingCards, firstSeq: read.firstSeq ?? 1 };
}

function readAwaitingCards(value: unknown): readonly string[] {
  if (value === undefined) return [];
  try {
    if (Array.isArray(value) && value.every((correlationId) => typeof correlationId === 'string')) return [...(value as string[])];
  } catch {
    // A Proxy or a getter in the list: the same TypeError as any other malformed list.
  }
  throw new TypeError('createAiSdkDecoder: awaitingCards must be an array of correlation ids');
}

/**
 * The chunk as its JSON text carries it (a chunk is the parsed JSON of one SSE
 * `data:` line): getters, `toJSON` and Proxy traps run once, here, and every
 * later read is of plain data. `undefined` when it is no JSON object with a
 * string `type`, or cannot be read (a throwing getter, a revoked Proxy, a cycle).
 */
export function readChunk(input: unknown): Fields | undefined {
  try {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
    const chunk: unknown = JSON.parse(JSON.stringify(input));
    return isRecord(chunk) && typeof chunk['type'] === 'string' ? chunk : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `value` is an object that is not an array. */
export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
