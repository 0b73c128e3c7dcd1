/**
 * The host's browser page (DESIGN §11), the script `serve-browser-page.ts`
 * serves inline at `/`: opening a conversation (a link, a reload, a second
 * tab) draws every turn from `GET /state` and resumes each running one after
 * its cursor; a form starts a turn, each turn followed with `followChatTurn`
 * and drawn from the reducer's state, cards answered, the running turn
 * cancellable, and the connection's state shown (reconnecting, reconnected).
 * No framework; the DOM is built only through `dom.ts`.
 */
import type { ChatCursor, ChatStateV1 } from '@papercusp/chat-protocol-core';
import { followChatTurn } from '@papercusp/chat-protocol-sse';
import {
  answerCard,
  authorization,
  cancelTurn,
  conversationUrl,
  describeRefusal,
  readConversation,
  startTurn,
  type PageSession,
} from './host-api.js';
import { conversationFragment, readFragmentSession } from './page-session.js';
import { createTurnView, type TurnView } from './render-turn.js';

function byId<Kind extends typeof HTMLElement>(id: string, kind: Kind): InstanceType<Kind> {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new TypeError(`the page has no #${id}`);
  return found as InstanceType<Kind>;
}

const settings = byId('session', HTMLFormElement);
const conversationInput = byId('conversation', HTMLInputElement);
const tokenInput = byId('token', HTMLInputElement);
const composer = byId('composer', HTMLFormElement);
const message = byId('message', HTMLTextAreaElement);
const sendButton = byId('send', HTMLButtonElement);
const cancelButton = byId('cancel', HTMLButtonElement);
const turns = byId('turns', HTMLOListElement);
const connection = byId('connection-status', HTMLParagraphElement);

/** The conversation the list shows: `ready` settles once it is drawn (`true`) or refused; aborting `streams` ends its follows. */
interface ShownConversation {
  readonly session: PageSession;
  readonly streams: AbortController;
  readonly ready: Promise<boolean>;
}

let running: { readonly session: PageSession; readonly turnId: string } | null = null;
let shown: ShownConversation | null = null;

const fieldSession = (): PageSession => ({ conversationId: conversationInput.value.trim(), token: tokenInput.value });
const sameSession = (left: PageSession, right: PageSession): boolean =>
  left.conversationId === right.conversationId && left.token === right.token;

// The address bar and the history entry keep the conversation (a reload reopens it), never the token.
const keepConversationInAddress = (conversationId: string): void =>
  history.replaceState(null, '', `${location.pathname}${location.search}${conversationFragment(conversationId)}`);

type ConnectionState = 'opening' | 'opened' | 'refused' | 'waiting' | 'connected' | 'reconnecting' | 'reconnected' | 'lost';

function showConnection(state: ConnectionState, text: string): void {
  connection.dataset['state'] = state;
  connection.replaceChildren(text);
}

// A turn's view at the end of the list; its cards are answered with the session that drew it.
function appendTurnView(session: PageSession, text: string | undefined): TurnView {
  const view = createTurnView(text, async (response) => {
    const answer = await answerCard(session, response);
    return answer.ok && answer.status === 200 ? null : describeRefusal(answer);
  });
  turns.append(view.element);
  return view;
}

async function follow(
  session: PageSession,
  turnId: string,
  view: TurnView,
  signal: AbortSignal,
  resume?: { readonly state: ChatStateV1; readonly cursor: ChatCursor },
): Promise<void> {
  const items = followChatTurn({
    url: conversationUrl(session, `/turns/${encodeURIComponent(turnId)}/events`),
    conversationId: session.conversationId,
    headers: authorization(session),
    signal,
    ...resume,
  });
  for await (const item of items) {
    if (item.type === 'state') {
      const turn = item.state.turns.find((candidate) => candidate.turnId === turnId);
      if (turn !== undefined) view.update(turn);
    } else if (item.type === 'connected') {
      showConnection(
        item.attempt === 0 ? 'connected' : 'reconnected',
        item.attempt === 0 ? 'Connected.' : 'Reconnected: resumed where it stopped.',
      );
    } else if (item.type === 'reconnecting') {
      showConnection('reconnecting', `Connection lost (${item.failure.code}): reconnecting, attempt ${item.attempt}…`);
    } else if (item.type === 'refused') {
      view.showProblem(`The host refused the stream: ${item.status} ${item.code}.`);
    } else if (item.type === 'rejected') {
      view.showProblem(`The stream could not be applied: ${item.code}.`);
    } else if (item.type === 'ended' && item.reason === 'gave-up') {
      showConnection('lost', 'Connection lost: gave up reconnecting. Reload to try again.');
    }
  }
}

// Follows a running turn to its end as the one Cancel cancels; no turn is sent meanwhile. Opening
// another conversation replaces `running`, so a follow it aborted leaves the buttons to that one.
async function track(
  session: PageSession,
  turnId: string,
  view: TurnView,
  signal: AbortSignal,
  resume?: { readonly state: ChatStateV1; readonly cursor: ChatCursor },
): Promise<void> {
  const mine = { session, turnId };
  running = mine;
  sendButton.disabled = true;
  cancelButton.disabled = false;
  await follow(session, turnId, view, signal, resume);
  if (running !== mine) return;
  running = null;
  cancelButton.disabled = true;
  sendButton.disabled = false;
}

// Draws the conversation's turns from its snapshot and resumes each running one after the snapshot's cursor,
// so what the snapshot holds is never streamed (or shown) twice.
async function draw(session: PageSession, streams: AbortController): Promise<boolean> {
  const answer = await readConversation(session);
  if (streams.signal.aborted) return false;
  sendButton.disabled = false;
  if (!answer.ok) {
    showConnection('refused', answer.message);
    return false;
  }
  const { state, running: cursors, prunedTurns } = answer.snapshot;
  showConnection(
    'opened',
    prunedTurns === 0 ? '' : `${prunedTurns} earlier turn${prunedTurns === 1 ? ' is' : 's are'} no longer kept by the host.`,
  );
  const views = new Map<string, TurnView>();
  for (const turn of state.turns) {
    const view = appendTurnView(session, turn.userInput?.text);
    view.update(turn);
    views.set(turn.turnId, view);
  }
  for (const cursor of cursors) {
    const view = views.get(cursor.turnId);
    if (view !== undefined) void track(session, cursor.turnId, view, streams.signal, { state, cursor });
  }
  return true;
}

// Shows `session`'s conversation in place of the one shown: the old one's streams end, its turns leave the list.
function open(session: PageSession): ShownConversation {
  shown?.streams.abort();
  running = null;
  sendButton.disabled = true;
  cancelButton.disabled = true;
  turns.replaceChildren();
  keepConversationInAddress(session.conversationId);
  showConnection('opening', 'Opening the conversation…');
  const streams = new AbortController();
  const ready = draw(session, streams).catch(() => {
    // A turn the page cannot draw: the host's fold holds what this page does not know.
    showConnection('refused', 'The host answered a conversation the page cannot show.');
    return false;
  });
  shown = { session, streams, ready };
  return shown;
}

const fragment = readFragmentSession(location.hash);
if (fragment.token !== undefined) tokenInput.value = fragment.token;
if (fragment.conversationId !== undefined) conversationInput.value = fragment.conversationId;
const initial = fieldSession();
keepConversationInAddress(initial.conversationId);
if (initial.conversationId !== '' && initial.token !== '') open(initial);
else if (initial.conversationId !== '') showConnection('waiting', 'Enter the bearer token and choose Open to show the conversation.');

settings.addEventListener('submit', (event) => {
  event.preventDefault();
  const session = fieldSession();
  if (session.conversationId !== '' && session.token !== '') open(session);
});

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = message.value.trim();
  const session = fieldSession();
  if (running !== null || sendButton.disabled || text === '' || session.conversationId === '' || session.token === '') return;
  sendButton.disabled = true;
  void (async () => {
    // A turn goes into the conversation the list shows: the fields' one, opened first when it is another.
    const conversation = shown !== null && sameSession(shown.session, session) ? shown : open(session);
    const opened = await conversation.ready;
    // Refused, superseded by another open, or a running turn was resumed: the message stays in its box.
    if (!opened || conversation !== shown || running !== null) return;
    sendButton.disabled = true;
    const view = appendTurnView(session, text);
    const started = await startTurn(session, text);
    if (conversation !== shown) return;
    if (!started.ok) {
      view.showProblem(started.message);
      sendButton.disabled = false;
      return;
    }
    message.value = '';
    await track(session, started.turnId, view, conversation.streams.signal);
  })();
});

cancelButton.addEventListener('click', () => {
  if (running === null) return;
  cancelButton.disabled = true;
  const { session, turnId } = running;
  // The stream shows the outcome (`done { status: 'cancelled' }`); a turn that already ended answers 409, nothing to do.
  void cancelTurn(session, turnId);
});
