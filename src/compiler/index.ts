export * from './compile/index.js';
export * from './schema/index.js';
export * from './validation/index.js';
