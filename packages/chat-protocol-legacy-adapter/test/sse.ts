/** Reading captured SSE text into messages, with the parser a host's client would use. */
import { readFileSync } from 'node:fs';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** The SSE messages of a text, in order; comments (`: keep-alive`) are not messages. */
export function readSse(text: string): EventSourceMessage[] {
  const messages: EventSourceMessage[] = [];
  createParser({ onEvent: (message) => messages.push(message) }).feed(text);
  return messages;
}

/** The root `fixtures/` folder. */
export const FIXTURES = new URL('../../../fixtures/', import.meta.url);

/** The SSE messages of a fixture file under `fixtures/`. */
export function readSseFixture(path: string): EventSourceMessage[] {
  return readSse(readFileSync(new URL(path, FIXTURES), 'utf8'));
}
