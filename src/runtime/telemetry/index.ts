export type { TelemetryOptions } from './options.js';
