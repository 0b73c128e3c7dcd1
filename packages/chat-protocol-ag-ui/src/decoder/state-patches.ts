/**
 * AG-UI host state as v1 `state` snapshots: a `STATE_SNAPSHOT` is the next version (the encoder's carried version
 * when it is later, else the count goes on), and a `STATE_DELTA` is RFC 6902 JSON Patch applied to the last snapshot
 * seen (`apply-json-patch.ts`), made the next version. It owns the state history record (the last version and
 * snapshot), changed only when a step commits; v1 state versions only order snapshots.
 */
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { readCarried } from '../resume-entries.js';
import { applyJsonPatch } from './apply-json-patch.js';
import type { Fields } from './event-vocabulary.js';
import type { Step } from './translated-step.js';

/** The last state version the decoder made and the snapshot an AG-UI STATE_DELTA patches. */
export interface StateHistory {
  version: number;
  last: { readonly snapshot: unknown } | undefined;
}

/** The history of a stream that made no state yet. */
export function createStateHistory(): StateHistory {
  return { version: -1, last: undefined };
}

/** `STATE_SNAPSHOT`: the next version, holding the snapshot. */
export function stateSnapshot(history: StateHistory, input: Fields): Step {
  const carried = readCarried(input['metadata'])?.['version'];
  // v1 state versions only order snapshots; without a carried one the decoder continues the count.
  const version = typeof carried === 'number' && carried > history.version ? carried : history.version + 1;
  const commit = () => {
    history.version = version;
    history.last = { snapshot: input['snapshot'] };
  };
  return { ok: true, events: [{ type: 'state', version, snapshot: input['snapshot'] }], lost: [], commit };
}

/** `STATE_DELTA`: the last snapshot patched, as the next version. */
export function stateDelta(history: StateHistory, input: Fields): Step {
  // v1 state is a snapshot: the patch applied to the last one is that snapshot's next version.
  const last = history.last;
  if (last === undefined) return refuse('unknown-state', 'a STATE_DELTA needs a STATE_SNAPSHOT before it');
  const patched = applyJsonPatch(last.snapshot, input['delta']);
  if (!patched.ok) return refuse('invalid-patch', patched.message);
  const version = history.version + 1;
  const commit = () => {
    history.version = version;
    history.last = { snapshot: patched.value };
  };
  return { ok: true, events: [{ type: 'state', version, snapshot: patched.value }], lost: [], commit };
}
