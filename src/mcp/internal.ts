/*
 * The MCP edge's face to the package's other layers (the CLI): helpers that are not public API
 * (the package's `exports` map has no path to this file).
 */
export { keepServingOnFloatingRejections } from './transports/process-guard.js';
