export * from './executor/index.js';
export * from './permissions/index.js';
export * from './interceptors/index.js';
export * from './output-limits/index.js';
export * from './scheduler/index.js';
