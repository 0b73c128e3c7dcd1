/**
 * @papercusp/chat-protocol-host-command: the `chat-protocol-host` command
 * (DESIGN §1, §11; its bin runs `src/cli.ts`), and the conversation owners it
 * runs on, for a library user's own host. Every export is listed by name;
 * `index.test.ts` pins the list. The library entry loads no database driver.
 */
export { claimConversationOwner, conversationOwnerLookups, migrateConversationOwners } from './conversation-owners.js';
export type { ConversationOwnerLookups } from './conversation-owners.js';
export type { HostCommandAgentFactory, HostCommandAgentOptions } from './load-host-agent.js';
