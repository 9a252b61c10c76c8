/*
 * The contract's face to the package's other layers: helpers hosts use that are not public API
 * (the package's `exports` map has no path to this file).
 */
export { carryMember, createLazySignalContext, defineLazySignal, writtenRecordOf } from './call-context.js';
export { isContractTool, isToolOutput, isThenable } from './shapes.js';
export { RawJsonData } from './raw-json.js';
