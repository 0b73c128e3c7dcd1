/**
 * The host's browser page (DESIGN §11), the script `serve-browser-page.ts`
 * serves inline at `/`: a form to start a turn, each turn followed with
 * `followChatTurn` and drawn from the reducer's state, cards answered, the
 * running turn cancellable, and the connection's state shown (reconnecting,
 * reconnected). No framework; the DOM is built only through `dom.ts`.
 */
import { followChatTurn } from '@papercusp/chat-protocol-sse';
import { answerCard, authorization, cancelTurn, conversationUrl, describeRefusal, startTurn, type PageSession } from './host-api.js';
import { readFragmentSession } from './page-session.js';
import { createTurnView, type TurnView } from './render-turn.js';

function byId<Kind extends typeof HTMLElement>(id: string, kind: Kind): InstanceType<Kind> {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new TypeError(`the page has no #${id}`);
  return found as InstanceType<Kind>;
}

const conversationInput = byId('conversation', HTMLInputElement);
const tokenInput = byId('token', HTMLInputElement);
const composer = byId('composer', HTMLFormElement);
const message = byId('message', HTMLTextAreaElement);
const sendButton = byId('send', HTMLButtonElement);
const cancelButton = byId('cancel', HTMLButtonElement);
const turns = byId('turns', HTMLOListElement);
const connection = byId('connection-status', HTMLParagraphElement);

const fragment = readFragmentSession(location.hash);
if (fragment.token !== undefined) tokenInput.value = fragment.token;
if (fragment.conversationId !== undefined) conversationInput.value = fragment.conversationId;
// The token stays in the form field: drop it from the address bar and the history entry.
if (location.hash !== '') history.replaceState(null, '', `${location.pathname}${location.search}`);

let running: { readonly session: PageSession; readonly turnId: string } | null = null;

function showConnection(state: 'connected' | 'reconnecting' | 'reconnected' | 'lost', text: string): void {
  connection.dataset['state'] = state;
  connection.replaceChildren(text);
}

async function follow(session: PageSession, turnId: string, view: TurnView): Promise<void> {
  const items = followChatTurn({
    url: conversationUrl(session, `/turns/${encodeURIComponent(turnId)}/events`),
    conversationId: session.conversationId,
    headers: authorization(session),
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

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = message.value.trim();
  const session: PageSession = { conversationId: conversationInput.value.trim(), token: tokenInput.value };
  if (running !== null || text === '' || session.conversationId === '' || session.token === '') return;
  sendButton.disabled = true;
  const view = createTurnView(text, async (response) => {
    const answer = await answerCard(session, response);
    return answer.ok && answer.status === 200 ? null : describeRefusal(answer);
  });
  turns.append(view.element);
  void (async () => {
    const started = await startTurn(session, text);
    if (!started.ok) {
      view.showProblem(started.message);
    } else {
      message.value = '';
      running = { session, turnId: started.turnId };
      cancelButton.disabled = false;
      await follow(session, started.turnId, view);
      running = null;
    }
    cancelButton.disabled = true;
    sendButton.disabled = false;
  })();
});

cancelButton.addEventListener('click', () => {
  if (running === null) return;
  cancelButton.disabled = true;
  const { session, turnId } = running;
  // The stream shows the outcome (`done { status: 'cancelled' }`); a turn that already ended answers 409, nothing to do.
  void cancelTurn(session, turnId);
});
