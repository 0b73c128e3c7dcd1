/**
 * @papercusp/chat-protocol-sse: the resumable SSE transport (DESIGN §10). Public exports, by name.
 */
