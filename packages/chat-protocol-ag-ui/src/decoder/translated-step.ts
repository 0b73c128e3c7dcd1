/**
 * What translating one AG-UI event gives the decoder: the v1 events it makes (none for most brackets), what it could
 * not carry, and the state change to apply once those events took their identities, or the refusal. The translators
 * (`run-brackets.ts`, `message-brackets.ts`, `tool-calls.ts`, `state-patches.ts`, `custom-events.ts`) make steps;
 * `emit-envelopes.ts` turns them into envelopes. It owns the shape only.
 */
import type { ChatRefusal } from '@papercusp/chat-protocol-core';
import type { AgUiLoss } from '../loss.js';
import type { DecodeAgUiEventRefusalCode } from './decoder-types.js';
import type { Fields } from './event-vocabulary.js';

/**
 * A translated event; `commit` updates the decoder's state once its envelopes took their identities, so a refused
 * event changes nothing.
 */
export interface TranslatedStep {
  readonly ok: true;
  readonly events: readonly Fields[];
  readonly lost: readonly AgUiLoss[];
  readonly commit?: () => void;
}

/** A translation: the step, or why the event is refused. */
export type Step = TranslatedStep | ChatRefusal<DecodeAgUiEventRefusalCode>;
