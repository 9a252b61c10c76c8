import type { LintRule } from '../types.js';
import { ANTHROPIC_RULES, ANTHROPIC_STRICT_RULES } from './anthropic.js';
import { GEMINI_RULES } from './gemini.js';
import { MCP_RULES } from './mcp.js';
import { OPENAI_STRICT_RULES } from './openai-strict.js';

/** Every rule the linter knows, by provider, each with its stable id and its citation. */
export const LINT_RULES: readonly LintRule[] = Object.freeze([
  ...OPENAI_STRICT_RULES,
  ...GEMINI_RULES,
  ...ANTHROPIC_RULES,
  ...ANTHROPIC_STRICT_RULES,
  ...MCP_RULES,
]);
