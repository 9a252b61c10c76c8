export { prepareTools, type PreparedTool } from './prepare.js';
export { runToolCall, type CallEnd, type CallObserver } from './run.js';
export type { CallCoreOptions } from './options.js';
