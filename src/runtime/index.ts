export * from './compile/index.js';
export * from './schema/index.js';
export * from './validation/index.js';
export * from './executor/index.js';
export * from './permissions/index.js';
export * from './hooks/index.js';
export * from './bounds/index.js';
