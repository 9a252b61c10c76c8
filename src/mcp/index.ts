export * from './server/index.js';
export * from './transports/index.js';
