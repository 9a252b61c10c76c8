export { lintSchema, lintTools, formatFindings, PROFILE_LEAVES, type LintOptions } from './lint.js';
export { LINT_RULES } from './rules/index.js';
export {
  LINT_PROVIDERS,
  type LintFinding,
  type LintProvider,
  type LintRule,
  type LintTarget,
  type RuleViolation,
  type SchemaNode,
} from './types.js';
