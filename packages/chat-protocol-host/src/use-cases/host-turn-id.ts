/**
 * The host's turn id for a client turn id: derived, not stored, so "once per
 * client turn id" needs no second table. It owns the derivation only.
 */

/**
 * `turn_` and the first 32 hex digits of SHA-256 over the conversation id and
 * the client turn id. Guarantees: the same pair always gives the same id (a
 * resend finds its turn); a different conversation gives a different id, so
 * one caller's client ids can never collide with, or probe, another's turns.
 * The form is recovery's turn id form (`isTurnId`).
 */
export async function hostTurnId(conversationId: string, clientTurnId: string): Promise<string> {
  const input = new TextEncoder().encode(`${conversationId}\u0000${clientTurnId}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', input));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `turn_${hex}`;
}
