export { prepareTools } from './prepare.js';
export { runToolCall } from './run.js';
export type { PreparedTool, CallEnd, CallObserver } from './prepared-tool.js';
export type { CallCoreOptions } from './options.js';
export type { OnRecord } from './call-steps.js';
