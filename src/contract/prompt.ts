import type { CallContext } from './context.js';
import type { CompletionOutput, CompletionRequest } from './completion.js';
import type { ContentPart } from './result.js';
import type { Requirement } from './tool.js';

/** One argument of a prompt, as MCP lists it: arguments are named strings. */
export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** True when `prompts/get` must give it. */
  readonly required?: boolean;
}

/** One message of a prompt: who says it, and one piece of content (text, image, audio, a resource or a link). */
export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentPart;
}

/** The full form of what a prompt returns: its messages, and optionally a description of this rendering. */
export interface PromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
}

/** What a prompt may return: text (one user message), the messages, or a full result. */
export type PromptOutput = string | readonly PromptMessage[] | PromptResult;

/**
 * A prompt: a plain value any host can serve. Only `name`, `description` and `get` are
 * required; a hand-built object is served exactly like a compiled one.
 */
export interface ContractPrompt {
  /** 1 to 128 characters of `A-Za-z0-9_-.` (the tool name rule); unique within a set. */
  readonly name: string;
  readonly title?: string;
  /** What the prompt is for, shown to the user who picks it. */
  readonly description: string;
  /** Its arguments; absent or empty means it takes none. */
  readonly arguments?: readonly PromptArgument[];
  /**
   * Renders the prompt with the arguments the client gave (names to strings). The host first
   * checks them against `arguments` (every required one given, no unknown one, every value a
   * string); a prompt `compilePrompts` made then validates them with its arguments class.
   */
  get(args: Readonly<Record<string, string>>, ctx: CallContext): Promise<PromptOutput>;
  /** Suggests values for one argument (MCP `completion/complete`); its presence is the claim. */
  complete?(request: CompletionRequest, ctx: CallContext): Promise<CompletionOutput>;
  /** Time limit of each rendering, in milliseconds (see `ContractTool.timeoutMs`). */
  readonly timeoutMs?: number;
  /** Upper bound on the characters of text the messages carry (see `ContractTool.maxOutputChars`). */
  readonly maxOutputChars?: number;
  /** Permission requirements checked before each rendering, on the arguments. */
  readonly requires?: readonly Requirement[];
  /** Releases what the prompt holds. The host calls it. */
  close?(): Promise<void>;
}

/** Makes a user message from text or one content part. */
export function userMessage(content: string | ContentPart): PromptMessage {
  return { role: 'user', content: typeof content === 'string' ? { type: 'text', text: content } : content };
}

/** Makes an assistant message from text or one content part. */
export function assistantMessage(content: string | ContentPart): PromptMessage {
  return { role: 'assistant', content: typeof content === 'string' ? { type: 'text', text: content } : content };
}
