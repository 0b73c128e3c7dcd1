/**
 * Where the page gets its bearer token and conversation: the URL fragment
 * (`#token=…&conversation=…`, which browsers never send to the server, so it
 * reaches no access log) or the form fields. The fragment is read once and
 * replaced by `#conversation=…` alone, so a reload reopens the conversation
 * while the token lives only in the form field, never in the address bar,
 * the history or any storage.
 */

/** What the fragment carried, each absent when not given. */
export interface FragmentSession {
  readonly token?: string;
  readonly conversationId?: string;
}

/** Reads `#token=…&conversation=…`. Pure: `hash` is `location.hash`. */
export function readFragmentSession(hash: string): FragmentSession {
  const parameters = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const token = parameters.get('token');
  const conversationId = parameters.get('conversation');
  return {
    ...(token === null || token === '' ? {} : { token }),
    ...(conversationId === null || conversationId === '' ? {} : { conversationId }),
  };
}

/** The fragment the page keeps in the address bar: the conversation only (`''` for none), which `readFragmentSession` reads back. */
export function conversationFragment(conversationId: string): string {
  return conversationId === '' ? '' : `#${new URLSearchParams({ conversation: conversationId }).toString()}`;
}
