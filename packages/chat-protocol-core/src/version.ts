/**
 * Protocol version negotiation: which explicit wire versions a peer may select.
 * It owns the closed set of versions (0 = legacy0, 1 = v1) and how a requested
 * version is read from a number or an HTTP header string. It refuses to guess:
 * a missing, future or malformed version is refused, never defaulted.
 */
import type { ChatRefusal } from './primitives/result.js';

/** The newest protocol version this package speaks. */
export const CHAT_PROTOCOL_VERSION = 1 as const;

/** A version a peer may select: 0 is legacy0 (unversioned frames), 1 is v1. */
export type ChatProtocolVersion = 0 | 1;

/** Refusal codes of {@link negotiateChatVersion}. */
export type NegotiateChatVersionRefusalCode = 'unsupported-version';

/** The result of {@link negotiateChatVersion}: the selected version, or a refusal carrying the value asked for. */
export type NegotiateChatVersionResult =
  | { readonly ok: true; readonly version: ChatProtocolVersion }
  | (ChatRefusal<NegotiateChatVersionRefusalCode> & { readonly requested: unknown });

/**
 * Reads the version a peer asks for.
 *
 * Accepts exactly the numbers `0` and `1` (so `-0`, which is `0`, selects 0) and
 * the strings `"0"` and `"1"` as an HTTP header carries them. Everything else —
 * missing (`undefined`, `null`, `""`), future (`2`, `"2"`) and malformed
 * (`1.5`, `"1.0"`, `"01"`, `" 1"`, `NaN`, booleans, objects, bigints) — is
 * `unsupported-version`, with `requested` set to the value as given. Never
 * throws and never reads properties of `requested`.
 */
export function negotiateChatVersion(requested: unknown): NegotiateChatVersionResult {
  if (requested === 0 || requested === '0') return { ok: true, version: 0 };
  if (requested === 1 || requested === '1') return { ok: true, version: 1 };
  return {
    ok: false,
    code: 'unsupported-version',
    message: 'requested protocol version is not 0 or 1',
    requested,
  };
}
