/**
 * The protocol's bridge schemas, in a chunk of their own: the page loads zod and the schemas only
 * when an allowed editor actually talks to it, so visitors' pages stay small.
 */
export { parseEditorToPageMessage } from '@fanfare/protocol';
