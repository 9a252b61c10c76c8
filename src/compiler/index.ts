export * from './compile/index.js';
export * from './schema/index.js';
export * from './validation/index.js';
export * from './lint/index.js';
export * from './profile/index.js';
