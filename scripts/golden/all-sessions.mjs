// @ts-check
// Every golden session, in the order index.json lists them (by name). Each
// session is written by hand in sessions/<name>.mjs; this list only collects
// them. Adding a session: write its file, list it here, run write-golden.mjs.
import { askedAndAnsweredSession } from './sessions/asked-and-answered.mjs';
import { blocksStreamedSession } from './sessions/blocks-streamed.mjs';
import { cancelledMidStreamSession } from './sessions/cancelled-mid-stream.mjs';
import { cancelledWithLateResultSession } from './sessions/cancelled-with-late-result.mjs';
import { cardAnsweredLaterSession } from './sessions/card-answered-later.mjs';
import { cardAnsweredSession } from './sessions/card-answered.mjs';
import { cardsApprovalReportPromptSession } from './sessions/cards-approval-report-prompt.mjs';
import { cardsAnsweredSession, cardsDeclinedSession, cardsExpiredSession } from './sessions/cards-of-every-kind.mjs';
import { failedThenRetriedSession } from './sessions/failed-then-retried.mjs';
import { interruptedTurnSession } from './sessions/interrupted-turn.mjs';
import { productEventsSession } from './sessions/product-events.mjs';
import { resumedAfterDisconnectSession } from './sessions/resumed-after-disconnect.mjs';
import { sameSessionProviderXSession, sameSessionProviderYSession } from './sessions/same-session.mjs';
import { toolOutcomesSession } from './sessions/tool-outcomes.mjs';
import { toolsAndSourcesSession } from './sessions/tools-and-sources.mjs';
import { upgradedFromPapercupSession, upgradedFromScoutSession } from './sessions/upgraded-from-legacy.mjs';

/** @type {readonly import('./session.mjs').GoldenSession[]} */
export const GOLDEN_SESSIONS = [
  askedAndAnsweredSession,
  blocksStreamedSession,
  cancelledMidStreamSession,
  cancelledWithLateResultSession,
  cardAnsweredSession,
  cardAnsweredLaterSession,
  cardsApprovalReportPromptSession,
  cardsAnsweredSession,
  cardsDeclinedSession,
  cardsExpiredSession,
  failedThenRetriedSession,
  interruptedTurnSession,
  productEventsSession,
  resumedAfterDisconnectSession,
  sameSessionProviderXSession,
  sameSessionProviderYSession,
  toolOutcomesSession,
  toolsAndSourcesSession,
  upgradedFromPapercupSession,
  upgradedFromScoutSession,
];
