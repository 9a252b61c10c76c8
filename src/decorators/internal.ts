/*
 * The decorators' face to the package's other layers: helpers they use that are not public API
 * (the package's `exports` map has no path to this file).
 */
export { isScopeToken } from './scopes.js';
