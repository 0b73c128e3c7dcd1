/**
 * The gate between an agent's steps and the event log: a frame the host builds
 * from what an agent yielded is written only when core's own parser accepts it
 * unchanged, so an agent can never put an invalid or oversized frame in the log.
 */
import { isSafeJson, parseChatEnvelope } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { ChatEventEnvelope, ChatRefusal } from '@papercusp/chat-protocol-core';

/** Why {@link checkAgentFrame} refused a frame: the one code the turn's `error` carries (the README documents it). */
type CheckAgentFrameRefusalCode = 'invalid-agent-step';

/** Result of {@link checkAgentFrame}: the envelope core parsed, or the refusal. */
export type CheckAgentFrameResult = { readonly ok: true; readonly value: ChatEventEnvelope } | ChatRefusal<CheckAgentFrameRefusalCode>;

/**
 * Checks a frame built from an agent step. Guarantees: every field of the
 * event is core's safe JSON as it stands (so no value is changed by its JSON
 * form: no `undefined`, dates or class instances slip through as something
 * else), and `parseChatEnvelope` accepts the envelope within `CHAT_LIMITS`;
 * the value returned is core's parse. The refusal's message names the step's
 * event type and core's refusal code, never the agent's data. Never throws.
 */
export function checkAgentFrame(envelope: ChatEventEnvelope): CheckAgentFrameResult {
  const type = envelope.event.type;
  if (!Object.values(envelope.event).every((value) => isSafeJson(value))) {
    return refuse('invalid-agent-step', `the agent's ${type} step holds a value that is not JSON data`);
  }
  const parsed = parseChatEnvelope(envelope);
  if (!parsed.ok) return refuse('invalid-agent-step', `the agent's ${type} step is not a valid v1 event (${parsed.code})`, parsed.issues);
  return { ok: true, value: parsed.value };
}
