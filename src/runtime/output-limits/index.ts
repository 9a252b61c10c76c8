export { boundResult, truncationMarker, OutputTooLargeError } from './truncate.js';
export { DEFAULT_MAX_OUTPUT_CHARS } from './defaults.js';
