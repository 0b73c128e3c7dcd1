/**
 * AG-UI `CUSTOM` events: only this package's `papercusp.event` has a v1 meaning, and it carries a v1 event AG-UI has
 * no native event for (a card, a product event) as it is, for core's strict parser to judge. A v1 event with a
 * native AG-UI event never travels this way. It owns that rule only.
 */
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { AG_UI_CUSTOM_EVENT_NAME } from '../ag-ui-event.js';
import { describe, isRecord, type Fields } from './event-vocabulary.js';
import type { Step } from './translated-step.js';

// v1 events AG-UI has a native event for: a CUSTOM "papercusp.event" never carries them (the encoder never writes
// one), and one that did could end or reorder the turn behind the run's back.
const NATIVE_TYPES = new Set(['user_input', 'delta', 'reasoning', 'tool_call', 'tool_result', 'state', 'done', 'error']);

/** A `CUSTOM` event: the v1 event a `papercusp.event` carries. */
export function customEvent(input: Fields): Step {
  if (input['name'] !== AG_UI_CUSTOM_EVENT_NAME)
    return refuse('unsupported-event', `the CUSTOM event ${describe(input['name'])} has no v1 meaning`);
  const value = input['value'];
  if (!isRecord(value)) return refuse('invalid-event', `a ${AG_UI_CUSTOM_EVENT_NAME} value is a v1 event`);
  if (typeof value['type'] === 'string' && NATIVE_TYPES.has(value['type']))
    return refuse('invalid-event', `a v1 ${value['type']} travels as its own AG-UI event, never in ${AG_UI_CUSTOM_EVENT_NAME}`);
  return { ok: true, events: [value], lost: [] };
}
