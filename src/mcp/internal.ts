/*
 * The MCP edge's face to the package's other layers (the CLI): helpers that are not public API
 * (the package's `exports` map has no path to this file).
 */
export { keepServingOnFloatingRejections } from './transports/process-guard.js';
// The Nest module serves one prepared tool set per application, as serveHttp does.
export { serverFor } from './server/create-server.js';
export { servedToolsOf, type ServedTool } from './server/served-tools.js';
// toolwright/testing answers a call in process exactly as a tools/call is answered.
export { mcpResultOf, toolCallOf } from './server/call.js';
export { ParkedRuns } from './server/input-rounds/parked-runs.js';
export { toolScopesOf } from './auth/tool-scopes.js';
