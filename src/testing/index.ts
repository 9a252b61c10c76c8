/**
 * `toolwright/testing`: call tools by name through the call core a server runs, with no transport (`testTools`).
 *
 * @module toolwright/testing
 */
// reflect-metadata must be loaded before any decorated class is evaluated (see src/index.ts).
import 'reflect-metadata';

export {
  testTools,
  type ToolTester,
  type TestToolsOptions,
  type TestCallOptions,
  type TestCallContext,
  type TestTask,
} from './test-tools.js';
export {
  testResources,
  testPrompts,
  type ResourceTester,
  type PromptTester,
  type TestFeaturesOptions,
} from './test-features.js';
