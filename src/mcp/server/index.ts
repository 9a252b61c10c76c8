export { FACTS_METHOD, FACTS_CAPABILITY, TOOL_META_KEY, RECORD_META_KEY } from './constants.js';
export { createServer, type ServerInfo } from './create-server.js';
export { addTools, type ServerOptions } from './add-tools.js';
export { definitionOf, annotationsFor, toolMetaOf, type ToolMeta } from './definition.js';
export { contentOf, type McpContent } from './content.js';
export { wireRecordOf, type WireRecord } from './record.js';
export { sessionFrom, sessionId } from './session.js';
export type { FactsWireAnswer } from './facts.js';
export { formSchemaOf } from './form-schema.js';
