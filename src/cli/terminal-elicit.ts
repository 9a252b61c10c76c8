import { isJsonObject, type JsonObject } from '../contract/index.js';
import type { CliIo } from './io.js';

/** What `toolwright call --ask` answers an elicitation with (the MCP `ElicitResult` shape). */
export type TerminalAnswer =
  | { readonly action: 'accept'; readonly content: Record<string, string | number | boolean> }
  | { readonly action: 'decline' | 'cancel' };

/** An elicitation as the server sent it (a form, or a URL to visit). */
export interface TerminalQuestion {
  readonly message?: unknown;
  readonly mode?: unknown;
  readonly url?: unknown;
  readonly requestedSchema?: unknown;
}

/** How many times one field is asked again after an answer that does not fit it. */
const RETRIES = 3;

/**
 * Asks one elicitation on the terminal for `toolwright call --ask`: the message on stderr, then
 * each field of the form on its own line, read from stdin (`io.readLine`). A field with choices
 * (`oneOf` of `const`s, as the permission question's `decision`, or `enum`) lists them numbered
 * and takes the number or the value; a boolean takes `y` or `n`; a number or integer field takes
 * a number; a string field takes the line as typed. An empty line leaves an optional field out;
 * an answer that does not fit is asked again (3 times, then the question is cancelled). A URL
 * question shows the URL and is accepted with an empty line, declined with `n`. End of input
 * leaves an optional field out; at a required field (or with an `io` that cannot read) it
 * cancels the question: nobody answered, which a permission question reads as deny once.
 */
export async function answerOnTerminal(question: TerminalQuestion, io: CliIo): Promise<TerminalAnswer> {
  const readLine = io.readLine;
  if (readLine === undefined) return { action: 'cancel' };
  io.err(`toolwright: ${String(question.message ?? '')}\n`);
  if (question.mode === 'url') {
    io.err(`  open ${String(question.url)}, then press Enter (n to decline): `);
    const line = await readLine();
    if (line === undefined) return { action: 'cancel' };
    return line.trim().toLowerCase() === 'n' ? { action: 'decline' } : { action: 'accept', content: {} };
  }
  const schema = isJsonObject(question.requestedSchema) ? question.requestedSchema : {};
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const content: Record<string, string | number | boolean> = {};
  for (const [name, field] of Object.entries(properties)) {
    if (!isJsonObject(field)) continue;
    const value = await askField(name, field, required.has(name), readLine, io);
    if (value === CANCELLED) return { action: 'cancel' };
    if (value !== undefined) content[name] = value;
  }
  return { action: 'accept', content };
}

const CANCELLED = Symbol('cancelled');

/** The choices of a field: `oneOf` consts with their titles, else `enum` values. */
function choicesOf(field: JsonObject): Array<{ value: string | number | boolean; title: string }> | undefined {
  if (Array.isArray(field.oneOf)) {
    const choices = field.oneOf.filter(isJsonObject).map((option) => ({
      value: option.const as string | number | boolean,
      title: typeof option.title === 'string' ? option.title : String(option.const),
    }));
    return choices.length > 0 ? choices : undefined;
  }
  if (Array.isArray(field.enum))
    return field.enum.map((value) => ({ value: value as string | number | boolean, title: String(value) }));
  return undefined;
}

async function askField(
  name: string,
  field: JsonObject,
  required: boolean,
  readLine: () => Promise<string | undefined>,
  io: CliIo,
): Promise<string | number | boolean | undefined | typeof CANCELLED> {
  const label = typeof field.title === 'string' ? field.title : name;
  const choices = choicesOf(field);
  if (choices !== undefined) io.err(choices.map((choice, i) => `  ${i + 1}) ${choice.title}\n`).join(''));
  const hint =
    choices !== undefined ? ' (number)' : field.type === 'boolean' ? ' (y/n)' : required ? '' : ' (optional)';
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    io.err(`${label}${hint}: `);
    const line = await readLine();
    if (line === undefined) return required ? CANCELLED : undefined;
    const typed = line.trim();
    if (typed === '' && !required) return undefined;
    const value = valueOf(typed, field, choices);
    if (value !== undefined) return value;
    io.err(`  that does not fit ${JSON.stringify(label)}\n`);
  }
  return CANCELLED;
}

function valueOf(
  typed: string,
  field: JsonObject,
  choices: Array<{ value: string | number | boolean; title: string }> | undefined,
): string | number | boolean | undefined {
  if (choices !== undefined) {
    const index = Number(typed);
    if (Number.isInteger(index) && index >= 1 && index <= choices.length) return choices[index - 1]!.value;
    return choices.find((choice) => String(choice.value) === typed)?.value;
  }
  if (field.type === 'boolean') return /^y(es)?$/i.test(typed) ? true : /^no?$/i.test(typed) ? false : undefined;
  if (field.type === 'number' || field.type === 'integer') {
    const number = Number(typed);
    if (typed === '' || !Number.isFinite(number) || (field.type === 'integer' && !Number.isInteger(number)))
      return undefined;
    return number;
  }
  return typed === '' ? undefined : typed;
}
