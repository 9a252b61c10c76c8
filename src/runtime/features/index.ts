export {
  prepareResources,
  preparePrompts,
  type PreparedResource,
  type PreparedTemplate,
  type PreparedPrompt,
  type PreparedResources,
} from './prepare.js';
export { runRead, runPrompt, runComplete, runList, type ReadEnd, type PromptEnd } from './run.js';
