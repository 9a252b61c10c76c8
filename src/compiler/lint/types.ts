import type { JsonObject } from '../../contract/index.js';

/** The providers and specifications the linter checks schemas against. */
export type LintProvider = 'openai-strict' | 'gemini' | 'anthropic' | 'anthropic-strict' | 'mcp';

/** Every provider, in the order findings are reported. */
export const LINT_PROVIDERS: readonly LintProvider[] = [
  'openai-strict',
  'gemini',
  'anthropic',
  'anthropic-strict',
  'mcp',
];

/** One schema the linter visits, with where it sits. */
export interface SchemaNode {
  readonly schema: JsonObject;
  /** The JSON pointer of the node within the tool's schema (`""` for the root). */
  readonly pointer: string;
  /** True for the root of an input or output schema. */
  readonly root: boolean;
  /** How many objects enclose this node (the root object is level 1). */
  readonly objectDepth: number;
}

/** What a rule is checking: the tool's name, and whether it is its input or output schema. */
export interface LintTarget {
  readonly tool: string;
  readonly role: 'input' | 'output';
  /** The whole schema the node belongs to (for `$ref` and recursion checks). */
  readonly document: JsonObject;
}

/** One thing a rule found wrong at one node: what and how to fix it. */
export interface RuleViolation {
  readonly message: string;
  readonly fix: string;
  /** A pointer below the node, when the problem is at a keyword (`/minLength`). */
  readonly at?: string;
}

/**
 * One documented rule of a provider. `id` is stable (`openai-strict/all-required`); `citation`
 * is the provider's documentation the rule is taken from. `check` is called for every node of a
 * schema (and `checkTool` once per tool) and returns the violations it finds there, never throws.
 */
export interface LintRule {
  readonly id: string;
  readonly provider: LintProvider;
  /** What the provider requires, in one sentence. */
  readonly summary: string;
  readonly citation: string;
  /** The rule's violations at one schema node (every node of every listed schema is visited). */
  check?(node: SchemaNode, target: LintTarget): readonly RuleViolation[];
  /** The rule's violations of a tool as a whole (its name, say). */
  checkTool?(tool: { readonly name: string }, target: LintTarget): readonly RuleViolation[];
}

/** One finding: which rule, which tool, where (a JSON pointer into the input or output schema), and the fix. */
export interface LintFinding {
  readonly rule: string;
  readonly provider: LintProvider;
  readonly tool: string;
  /** `inputSchema` or `outputSchema`. */
  readonly schema: 'inputSchema' | 'outputSchema';
  /** JSON pointer within that schema (`""` is its root). */
  readonly pointer: string;
  readonly message: string;
  readonly fix: string;
  readonly citation: string;
}
