import { isJsonObject } from '../../../contract/index.js';
import { kindOf } from '../../../util/describe.js';
import { problemsText } from '../../../compiler/internal.js';
import { compileSchema } from '../../../compiler/validation/index.js';
import type { TaskInputRequest } from '../../../runtime/tasks/index.js';

const ELICIT_ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/**
 * What is wrong with `answer` as the client's answer to the input request `request` of a task
 * (a `tasks/update` `inputResponses` entry), in words that name the problem; `undefined` when it
 * is a well-formed answer. By method: `elicitation/create` wants `{action: "accept" | "decline"
 * | "cancel", content?}`, and an accepted form answer's `content` must match the request's
 * `requestedSchema` (checked with the default validator; the tool's own check runs again);
 * `sampling/createMessage` wants `{role: "user" | "assistant", content: object, model:
 * string}`; `roots/list` wants `{roots: [{uri: string}, ...]}`. Any other method wants an object.
 * It never throws: a requested schema that cannot be compiled is left to the tool's own check.
 */
export function inputResponseProblem(request: TaskInputRequest, answer: unknown): string | undefined {
  if (!isJsonObject(answer)) return `must be an object answering ${request.method}, got ${kindOf(answer)}`;
  if (request.method === 'elicitation/create') return elicitProblem(request, answer);
  if (request.method === 'sampling/createMessage') {
    if (answer.role !== 'user' && answer.role !== 'assistant')
      return `answers sampling/createMessage and needs "role" "user" or "assistant", got ${shown(answer.role)}`;
    if (!isJsonObject(answer.content) && !Array.isArray(answer.content))
      return `answers sampling/createMessage and needs a "content" object, got ${kindOf(answer.content)}`;
    if (typeof answer.model !== 'string')
      return `answers sampling/createMessage and needs a "model" string, got ${kindOf(answer.model)}`;
    return undefined;
  }
  if (request.method === 'roots/list') {
    const roots = answer.roots;
    if (!Array.isArray(roots) || !roots.every((root) => isJsonObject(root) && typeof root.uri === 'string'))
      return 'answers roots/list and needs a "roots" array of objects with a string "uri"';
  }
  return undefined;
}

function elicitProblem(request: TaskInputRequest, answer: Record<string, unknown>): string | undefined {
  if (!ELICIT_ACTIONS.has(answer.action))
    return `answers elicitation/create and needs "action" "accept", "decline" or "cancel", got ${shown(answer.action)}`;
  if (answer.content !== undefined && !isJsonObject(answer.content))
    return `answers elicitation/create and its "content" must be an object, got ${kindOf(answer.content)}`;
  const schema = request.params.requestedSchema;
  if (answer.action !== 'accept' || !isJsonObject(schema)) return undefined;
  let validate: ReturnType<typeof compileSchema>;
  try {
    validate = compileSchema(schema);
  } catch {
    return undefined;
  }
  return validate(answer.content ?? {})
    ? undefined
    : `does not match the requested schema: ${problemsText(validate.errors)}`;
}

/** A primitive as JSON, anything else by its kind. */
function shown(value: unknown): string {
  return typeof value === 'object' && value !== null ? kindOf(value) : (JSON.stringify(value) ?? 'undefined');
}
