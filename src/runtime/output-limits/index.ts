export { boundResult, truncationMarker, OutputTooLargeError } from './truncate.js';
export { withOutputBound, applyOutputBounds, type OutputBoundsOptions } from './apply.js';
export { DEFAULT_MAX_OUTPUT_CHARS, serverOutputBoundOf } from './defaults.js';
