export * from './server/index.js';
export * from './transports/index.js';
export * from './client/index.js';
export * from './proxy/index.js';
export * from './auth/index.js';
