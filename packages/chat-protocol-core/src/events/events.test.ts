import { describe, expect, it } from 'vitest';
import { CHAT_EVENT_FIELDS, CHAT_EVENT_TYPES_V1 } from './event-fields.js';
import { USER_INPUT_SOURCES, channelOf, type ChatChannel, type ChatEventTypeV1 } from './events.js';

describe('channelOf (DESIGN §3.3)', () => {
  const channels: readonly (readonly [ChatEventTypeV1, ChatChannel])[] = [
    ['user_input', 'event'],
    ['delta', 'event'],
    ['reasoning', 'event'],
    ['tool_call', 'event'],
    ['tool_result', 'event'],
    ['provenance', 'event'],
    ['card', 'state'],
    ['card_closed', 'state'],
    ['state', 'state'],
    ['navigate', 'transient'],
    ['done', 'event'],
    ['error', 'event'],
  ];
  it.each(channels)('%s is on the %s channel', (type, channel) => {
    expect(channelOf(type)).toBe(channel);
  });
  it('the table covers every v1 event type', () => {
    expect(channels.map(([type]) => type).sort()).toEqual([...CHAT_EVENT_TYPES_V1].sort());
  });
});

describe('user_input (DESIGN §3.3, issue 13)', () => {
  it('is the first type of the contract table and carries exactly type, text and source', () => {
    expect(CHAT_EVENT_TYPES_V1[0]).toBe('user_input');
    expect(CHAT_EVENT_FIELDS.user_input).toEqual(['type', 'text', 'source']);
  });
  it("sources are Papercusp's vocabulary for a person's message", () => {
    expect(USER_INPUT_SOURCES).toEqual(['text_typed', 'voice_stt', 'system']);
  });
});
