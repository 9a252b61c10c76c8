// CLI fixture: the same tool as permissions.ts, without a `policy` export.
export { tools } from './permissions.js';
