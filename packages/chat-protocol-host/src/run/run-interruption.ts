/**
 * How a run tells an interruption from a cancellation on its own signal: both
 * abort it, but a cancelled run writes the turn's `done { status: 'cancelled' }`
 * while an interrupted one (its lease lost, the turn interrupted by another
 * process, or given up by a draining host) writes nothing more: the
 * interrupter owns the tail (DESIGN §6 rule 12, §11.2). It owns that mark only.
 */

// The reasons this module made: an interruption is known by its reason's identity, never by a message.
const INTERRUPTIONS = new WeakSet<object>();

/**
 * An abort reason meaning "this run no longer owns its turn": an `AbortError`
 * (so an agent's fetch and the AI SDK treat it as an abort) saying why.
 */
export function interruptionReason(why: string): DOMException {
  const reason = new DOMException(`the turn's run was interrupted: ${why}`, 'AbortError');
  INTERRUPTIONS.add(reason);
  return reason;
}

/** Whether `signal` was aborted with an {@link interruptionReason}. */
export function isInterrupted(signal: AbortSignal): boolean {
  const { reason } = signal;
  return signal.aborted && typeof reason === 'object' && reason !== null && INTERRUPTIONS.has(reason);
}
