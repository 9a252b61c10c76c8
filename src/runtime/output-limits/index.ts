export { boundResult, truncationMarker, OutputTooLargeError } from './truncate.js';
