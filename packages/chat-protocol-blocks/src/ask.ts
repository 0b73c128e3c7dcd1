/**
 * `<ask>` blocks: a durable question an agent puts to the owner, with optional
 * choices and references. This module owns the normalized shape (schema and
 * type) and the tolerant parser that reads a model's JSON into it. It owns no
 * tag syntax (tag-readers.ts), no answer handling and no authority: an option id is
 * what the owner answers with, never a permission.
 */
import { customCheck, exactOptional, strictExactObject, trimmedTextSchema } from '@papercusp/chat-protocol-core/internal';
import * as z from 'zod/v4/mini';
import { normalizeBlockText, readBlockText } from './block-text.js';
import { asRecord, readList, readOwnValue } from './defensive-read.js';
import { BLOCK_LIMITS } from './limits.js';

const AskOptionSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    id: trimmedTextSchema(BLOCK_LIMITS.maxTokenLength),
    label: trimmedTextSchema(BLOCK_LIMITS.maxTextLength),
    description: exactOptional(trimmedTextSchema(BLOCK_LIMITS.maxTextLength)),
  }))();

/**
 * Schema of a normalized ask block: strict at every level; every string
 * trimmed, non-blank, clean and within {@link BLOCK_LIMITS}; `options` and
 * `refs` non-empty when present; option ids unique; refs unique; an optional
 * key is absent, never `undefined`. Exactly the values {@link parseAskBlock}
 * returns unchanged.
 */
export const AskBlockSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    question: trimmedTextSchema(BLOCK_LIMITS.maxTextLength),
    options: exactOptional(
      z.array(AskOptionSchema).check(
        z.minLength(1),
        z.maxLength(BLOCK_LIMITS.maxOptions),
        customCheck((options: ReadonlyArray<{ readonly id: unknown }>, report) => {
          const seen = new Set<unknown>();
          options.forEach((option, index) => {
            if (seen.has(option.id)) report({ message: 'duplicate option id', path: [index, 'id'], input: option.id });
            seen.add(option.id);
          });
        }),
      ),
    ),
    refs: exactOptional(
      z.array(trimmedTextSchema(BLOCK_LIMITS.maxTextLength)).check(
        z.minLength(1),
        z.maxLength(BLOCK_LIMITS.maxRefs),
        customCheck((refs: readonly unknown[], report) => {
          const seen = new Set<unknown>();
          refs.forEach((ref, index) => {
            if (seen.has(ref)) report({ message: 'duplicate ref', path: [index], input: ref });
            seen.add(ref);
          });
        }),
      ),
    ),
  }))();

/** A normalized `<ask>` block. */
export type AskBlock = z.infer<typeof AskBlockSchema>;

/** One choice of an {@link AskBlock}. */
export type AskOption = NonNullable<AskBlock['options']>[number];

function readOption(entry: unknown): AskOption | undefined {
  const source = asRecord(entry);
  if (source === undefined) return undefined;
  // The owner answers with the id, so an option without one cannot be chosen: it is dropped.
  const id = readBlockText(source, 'id', BLOCK_LIMITS.maxTokenLength);
  if (id === undefined) return undefined;
  const label = readBlockText(source, 'label', BLOCK_LIMITS.maxTextLength) ?? id;
  const description = readBlockText(source, 'description', BLOCK_LIMITS.maxTextLength);
  return { id, label, ...(description === undefined ? {} : { description }) };
}

/** `list` without its later repeats of a key, in order. */
function keepFirst<T>(list: readonly T[], keyOf: (entry: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((entry) => {
    const key = keyOf(entry);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Reads the parsed JSON of an `<ask>` body into a normalized {@link AskBlock},
 * or `null` when there is no usable question.
 *
 * Guarantees: never throws (getters, Proxies and cycles included) and never
 * mutates or retains `input`; reads only own data properties (a getter never
 * runs; `__proto__`, `constructor` and `prototype` keys are never read) and
 * builds the result from fresh literals, so no prototype is ever polluted.
 * Strings are trimmed; a string that is blank, not clean text, or past its
 * bound in {@link BLOCK_LIMITS} is absent (dropped, never truncated); a
 * non-string (a number included) where a string belongs is absent, and so is
 * an array where an object belongs or an object where an array belongs. An
 * option's label falls back to its id; an option without a usable id is dropped
 * (the id is what the owner answers with); of options sharing an id the first
 * is kept. Refs keep only strings, trimmed, without blanks and repeats. Only the
 * first `maxOptions` options and `maxRefs` refs are read. Empty arrays are
 * omitted and no key holds `undefined`; keys come in the schema's order. A
 * string input is not JSON-parsed (it gives `null`): the tag readers parse the
 * tag body. The result satisfies {@link AskBlockSchema}, and parsing it again
 * returns an equal block.
 */
export function parseAskBlock(input: unknown): AskBlock | null {
  try {
    const source = asRecord(input);
    if (source === undefined) return null;
    const question = readBlockText(source, 'question', BLOCK_LIMITS.maxTextLength);
    if (question === undefined) return null;
    const options = keepFirst(readList(readOwnValue(source, 'options'), BLOCK_LIMITS.maxOptions, readOption), (option) => option.id);
    const refs = keepFirst(
      readList(readOwnValue(source, 'refs'), BLOCK_LIMITS.maxRefs, (entry) => normalizeBlockText(entry, BLOCK_LIMITS.maxTextLength)),
      (ref) => ref,
    );
    return {
      question,
      ...(options.length === 0 ? {} : { options }),
      ...(refs.length === 0 ? {} : { refs }),
    };
  } catch {
    // Every read above already contains its own failures; this is the last guard of the contract.
    return null;
  }
}
