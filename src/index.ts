// reflect-metadata must be loaded before any decorated class is evaluated: TypeScript's
// emitted `__metadata` helper silently does nothing without it. Importing toolwright loads it.
import 'reflect-metadata';

export * from './contract/index.js';
export * from './decorators/index.js';
export * from './compiler/index.js';
export * from './runtime/index.js';
export * from './mcp/index.js';
