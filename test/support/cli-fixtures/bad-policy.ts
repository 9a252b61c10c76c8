// CLI fixture: a `policy` export that is neither a PermissionPolicy nor createPolicy options.
export { tools } from './permissions.js';
export const policy = 'allow everything';
