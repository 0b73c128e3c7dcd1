/**
 * @papercusp/chat-protocol-core/internal: the helpers the other @papercusp
 * packages build on (reading a request's fields once, the shared refusal
 * shape, the brand check, the zod builders of the blocks, the envelope
 * digest). It is for those packages, with no semver promise beyond them: a
 * name here may change or go in any release of core, together with the
 * @papercusp packages that use it. An app imports the package root. Every
 * export is listed by name; `internal.test.ts` pins the list.
 */
export { readFields } from './primitives/read-fields.js';
export { refuse } from './primitives/result.js';
export { hasBrand } from './primitives/brand.js';
export { customCheck, exactOptional, strictExactObject } from './primitives/exact-object.js';
export type { CustomIssue, ExactOptional } from './primitives/exact-object.js';
export { digestEnvelope } from './state/digest.js';
export { isReportExtensionName, trimmedTextSchema } from './cards/report-block.js';
