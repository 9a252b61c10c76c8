export { boundResult, truncationMarker, OutputTooLargeError } from './truncate.js';
export { withOutputBound, applyOutputBounds, type OutputBoundsOptions } from './apply.js';
