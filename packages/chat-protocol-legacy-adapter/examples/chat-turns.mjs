import { parseChatHistoryPage } from '@papercusp/chat-protocol-core';
import { upgradeLegacyChatTurn } from '@papercusp/chat-protocol-legacy-adapter';

// Two persisted Papercusp ChatTurn records: a question typed by the person, and
// a spoken answer whose tool asked a card the person answered (a stored pick).
const records = [
  { id: 'msg_1', seq: 1, role: 'user', text: 'Keep the stale branch?', createdAt: 1796029200000, source: 'text_typed' },
  {
    id: 'msg_2',
    seq: 2,
    role: 'assistant',
    text: 'Dropped.',
    createdAt: 1796029204512,
    source: 'voice_tts',
    tools: [
      {
        callId: 'call_1',
        name: 'ask_choice',
        ok: true,
        card: {
          correlationId: 'card_1',
          createdAt: 1796029201000,
          prompt: 'Keep or drop it?',
          presentation: {
            kind: 'radio',
            options: [
              { id: 'keep', label: 'Keep' },
              { id: 'drop', label: 'Drop' },
            ],
          },
          allowDecline: true,
        },
        picks: [{ option_id: 'drop' }],
      },
    ],
    planSlug: 'cleanup',
  },
];

const turns = [];
for (const record of records) {
  const upgraded = upgradeLegacyChatTurn(record);
  if (upgraded.ok) turns.push(upgraded.value);
  else console.log(`refused ${record.id}: ${upgraded.code}`);
}
const page = parseChatHistoryPage({ turns, hasMoreEarlier: false });
for (const turn of page.ok ? page.value.turns : []) {
  const answers = (turn.cards ?? []).map((entry) => `${entry.resolution} ${JSON.stringify(entry.answer)}`);
  console.log(
    `${turn.createdAt} ${turn.role} (${turn.source}): ${turn.text}${answers.length > 0 ? ` [${answers.join(', ')}]` : ''}${turn.product ? ` ${JSON.stringify(turn.product)}` : ''}`,
  );
}
console.log(upgradeLegacyChatTurn({ ...records[0], createdAt: '2026-11-30T09:00:00Z' }).code);
