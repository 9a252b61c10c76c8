/*
 * The MCP edge's face to the package's other layers (the CLI): helpers that are not public API
 * (the package's `exports` map has no path to this file).
 */
export { keepServingOnFloatingRejections } from './transports/process-guard.js';
// The Nest module serves one prepared tool set per application, as serveHttp does.
export { serverFor } from './server/create-server.js';
export { LiveSet } from './server/live-set.js';
export { servedSetFacade, withServedSet } from './server/served-set.js';
export { servedToolsOf, type ServedTool } from './server/served-tools.js';
// toolwright/testing answers a call in process exactly as a tools/call is answered.
export { mcpResultOf, toolCallOf } from './server/call.js';
export { ParkedRuns } from './server/input-rounds/parked-runs.js';
export { liveToolScopes, toolScopesOf } from './auth/tool-scopes.js';
export { servedFeaturesOf, type ServedFeatures } from './server/features.js';
// toolwright/testing answers resource, prompt and completion requests in process as the server does.
export {
  answerComplete,
  answerGetPrompt,
  answerPromptsList,
  answerRead,
  answerResourcesList,
  answerTemplatesList,
  type FeatureContextOf,
} from './server/answer-features.js';
export { ProtocolError } from './server/protocol-error.js';
export { changeBusOf } from './transports/change-bus.js';
export type { ProtocolEra } from './server/extra.js';
// toolwright/testing runs tasks in process as the server runs them.
export { TaskRunner } from './server/tasks/task-runner.js';
export { SERVER_STOPPED_TEXT } from './server/tasks/constants.js';
export { stopTasksOf } from './server/tasks/serve-tasks.js';
