/**
 * An event log whose every call passes through fast-check's scheduler: the
 * event log race checks' connections, and a host's own race tests. It owns the
 * wrapping only; the log and its database stay the host's.
 */
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import type { Scheduler } from 'fast-check';
import { scheduleTransit } from './scheduled-transit.js';

/**
 * Wraps `append`, `replayWindow`, `subscribe` and `pruneTurns` of `log` with
 * `scheduleTransit`: each request reaches the log, and each answer comes back,
 * when the scheduler says. Deliveries to a subscriber are the log's own and
 * are not scheduled. The input is not modified.
 */
export function scheduleChatEventLog(log: ChatEventLog, scheduler: Scheduler): ChatEventLog {
  return {
    append: scheduleTransit(scheduler, 'append', log.append.bind(log)),
    replayWindow: scheduleTransit(scheduler, 'replayWindow', log.replayWindow.bind(log)),
    subscribe: scheduleTransit(scheduler, 'subscribe', log.subscribe.bind(log)),
    pruneTurns: scheduleTransit(scheduler, 'pruneTurns', log.pruneTurns.bind(log)),
  };
}
