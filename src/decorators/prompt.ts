import { cleanText } from '../util/clean-text.js';
import { DecoratorError, TOOL_NAME_PATTERN } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import { checkOnApply, classTarget, optionalString, plainOptions } from './guards.js';
import { setPromptOptions, type PromptOptions } from './feature-metadata.js';
import { checkOneKind, optionalClass } from './feature-options.js';

const DECORATOR = '@Prompt()';
const KEYS = ['name', 'title', 'description', 'args'] as const;

function checkOptions(options: unknown): PromptOptions {
  const given = plainOptions(DECORATOR, options, KEYS);
  optionalString(DECORATOR, 'name', given.name);
  if (typeof given.name === 'string' && !TOOL_NAME_PATTERN.test(given.name))
    throw new DecoratorError(
      `${DECORATOR}: name ${JSON.stringify(given.name)} is not a valid prompt name (1 to 128 of A-Z a-z 0-9 _ - .)`,
    );
  optionalString(DECORATOR, 'title', given.title);
  if (typeof given.description !== 'string')
    throw new DecoratorError(
      `${DECORATOR}: "description" is required and must be a string, got ${kindOf(given.description)}`,
    );
  optionalClass(DECORATOR, 'args', given.args);
  return { ...(given as unknown as PromptOptions), description: cleanText(given.description) };
}

/**
 * Marks a class as an MCP prompt (`prompts/list` lists it, `prompts/get` renders it). The class
 * must have a `messages(args, ctx)` method returning the messages: text, an array of
 * `userMessage(...)` / `assistantMessage(...)` messages (text, image, audio or an embedded
 * resource each), or `{ description, messages }` (checked by `compilePrompts`). `args` names the
 * arguments class: each property is one prompt argument (MCP arguments are named strings, so a
 * property must be a string, a number, a boolean or a string enum), with its `@Description` and
 * `required` unless `@IsOptional()`; `@Complete('argument')` methods complete arguments.
 * `description` is required; `name` defaults to the class name in snake_case without a trailing
 * `Prompt`. Throws a `DecoratorError` naming the class, as the class is defined, for a bad
 * option, a non-class target, or a class already marked as a tool, a resource or a template.
 */
export function Prompt(options: PromptOptions): ClassDecorator {
  const checked = checkOnApply(DECORATOR, () => checkOptions(options));
  return (...args: unknown[]) => {
    const cls = classTarget(DECORATOR, args);
    const given = checked(args);
    checkOneKind(DECORATOR, cls, 'prompt');
    setPromptOptions(cls, given);
  };
}

/** The plain-function twin of `@Prompt()`. */
export function definePrompt(cls: Function, options: PromptOptions): void {
  Prompt(options)(cls);
}
