import { randomUUID } from '../../util/random.js';
import { isJsonObject, type ElicitAnswer, type Elicitation, type JsonObject } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import { problemsText } from '../../compiler/internal.js';
import { compileSchema, type CompiledSchema, type SchemaValidator } from '../../compiler/validation/index.js';
import type { HandlerExtra } from './extra.js';

/** The client's elicitation capability as the SDK keeps it after `initialize`. */
type ElicitationCapability = { form?: unknown; url?: unknown } | undefined;

/** An `elicitation/create` result as the SDK hands it over (already checked against its schema). */
interface ElicitResultShape {
  readonly action: ElicitAnswer['action'];
  readonly content?: unknown;
}

/**
 * True when the client offers the mode a question needs: a `url` question needs
 * `elicitation.url`; a form needs `elicitation.form`, or an elicitation capability naming
 * neither mode (the 2025-06-18 form, which the SDK also reads as form).
 */
export function offersMode(capability: ElicitationCapability, mode: 'form' | 'url'): boolean {
  if (typeof capability !== 'object' || capability === null) return false;
  if (mode === 'url') return capability.url !== undefined;
  return capability.form !== undefined || capability.url === undefined;
}

/**
 * Makes `ctx.elicit` for one call: asks the user through an `elicitation/create` request and
 * resolves the answer. In the 2025 era the request is pushed on the call's own request stream;
 * in the 2026-07-28 era `extra.sendRequest` puts it into the call's input round (see
 * `ParkedRun`), and the client's retry carries the answer. A question with a `url` is asked in
 * URL mode (`{mode:"url", message, url}`, plus a fresh random `elicitationId` in the 2025 era
 * only: the 2026-07-28 revision dropped it); any other in form mode (`{mode:"form", message,
 * requestedSchema}`, the schema or `{"type":"object","properties":{}}`, a confirmation). A mode
 * the client's capabilities for this request do not offer is answered `{action:"cancel"}`
 * without asking. An accepted form answer is validated against the requested schema with
 * `validator` (the server's; default: the default validator). Rejects (never resolves "no")
 * when: the question has no string `message`; its `schema` is not an object or cannot be
 * compiled (`elicitation: the requested schema cannot be compiled: ...`); asking fails; or the
 * answer does not match (`elicitation answer does not match the requested schema: /age: must
 * be integer`). Cancelling the call cancels the question.
 * `signalOf` gives the call's signal; it is read only when a request is sent.
 */
export function elicitorOf(
  extra: HandlerExtra,
  signalOf: () => AbortSignal,
  validator?: SchemaValidator,
): (question: Elicitation) => Promise<ElicitAnswer> {
  return async (question) => {
    if (typeof question !== 'object' || question === null || typeof question.message !== 'string') {
      throw new TypeError('elicitation: the question needs a "message" string');
    }
    const capability = extra.clientCapabilities()?.elicitation as ElicitationCapability;
    if (question.url !== undefined) {
      if (typeof question.url !== 'string') throw new TypeError('elicitation: "url" must be a string');
      if (!offersMode(capability, 'url')) return { action: 'cancel' };
      // The 2026-07-28 revision dropped the elicitationId (its URL elicitations are in-band).
      const params: Record<string, unknown> = { mode: 'url', message: question.message, url: question.url };
      if (extra.era === 'legacy') params.elicitationId = randomUUID();
      const answer = (await extra.sendRequest(
        { method: 'elicitation/create', params, ...keyOf(question.key) },
        { signal: signalOf() },
      )) as ElicitResultShape;
      return answerOf(answer.action, answer.content as JsonObject | undefined);
    }
    if (question.schema !== undefined && !isJsonObject(question.schema))
      throw new TypeError('elicitation: "schema" must be a JSON object schema');
    if (!offersMode(capability, 'form')) return { action: 'cancel' };
    const requestedSchema: JsonObject = question.schema ?? { type: 'object', properties: {} };
    const validate = formValidatorOf(requestedSchema, validator);
    const params = { mode: 'form', message: question.message, requestedSchema };
    const answer = (await extra.sendRequest(
      { method: 'elicitation/create', params, ...keyOf(question.key) },
      { signal: signalOf() },
    )) as ElicitResultShape;
    const content = answer.content as JsonObject | undefined;
    if (answer.action === 'accept' && !validate(content ?? {})) {
      throw new Error(`elicitation answer does not match the requested schema: ${problemsText(validate.errors)}`);
    }
    return answerOf(answer.action, content);
  };
}

/**
 * The validator of a form schema: compiled once per schema object, and kept only as long as the
 * schema object lives (see `compileSchema`: it never stays in the validator's own cache), since
 * questions are often built per call.
 */
function formValidatorOf(schema: JsonObject, validator: SchemaValidator | undefined): CompiledSchema {
  try {
    return compileSchema(schema, validator);
  } catch (err) {
    throw new Error(`elicitation: the requested schema cannot be compiled: ${errorText(err)}`);
  }
}

/** The input-round key a question asked for, checked: `{ key }` or nothing. */
export function keyOf(key: unknown): { key?: string } {
  if (key === undefined) return {};
  if (typeof key !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(key))
    throw new TypeError(`"key" must be 1 to 64 characters of A-Za-z0-9_-, got ${JSON.stringify(key) ?? typeof key}`);
  return { key };
}

function answerOf(action: ElicitAnswer['action'], content: JsonObject | undefined): ElicitAnswer {
  return action === 'accept' && content !== undefined ? { action, content } : { action };
}
