import {
  factsOf,
  isJsonObject,
  resultOf,
  type CallContext,
  type ContractTool,
  type FactsAnswer,
  type ToolOutput,
} from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isToolOutput } from '../../contract/internal.js';
import { CallRefusedError, InterceptorError, RewriteUnavailableError } from './errors.js';
import type { BeforeAnswer, InterceptedCall, Interceptor } from './types.js';

function label(interceptor: Interceptor, index: number): string {
  return interceptor.name === undefined || interceptor.name === ''
    ? `interceptor ${index + 1}`
    : `interceptor ${JSON.stringify(interceptor.name)}`;
}

/**
 * Checks an `interceptors` option and returns a frozen copy. Throws a `TypeError` beginning with
 * `where` for a value that is not an array, or an interceptor that is not an object with
 * `before` and/or `after` functions (and a string `name`, when it has one).
 */
export function checkInterceptors(interceptors: readonly Interceptor[], where: string): readonly Interceptor[] {
  if (!Array.isArray(interceptors)) throw new TypeError(`${where}: "interceptors" must be an array`);
  interceptors.forEach((interceptor, index) => {
    const at = `${where}: interceptor ${index + 1}`;
    if (typeof interceptor !== 'object' || interceptor === null)
      throw new TypeError(`${at} must be an object with before() and/or after()`);
    if (interceptor.before !== undefined && typeof interceptor.before !== 'function')
      throw new TypeError(`${at}: "before" must be a function`);
    if (interceptor.after !== undefined && typeof interceptor.after !== 'function')
      throw new TypeError(`${at}: "after" must be a function`);
    if (interceptor.before === undefined && interceptor.after === undefined)
      throw new TypeError(`${at} has neither before() nor after()`);
    if (interceptor.name !== undefined && typeof interceptor.name !== 'string')
      throw new TypeError(`${at}: "name" must be a string`);
  });
  return Object.freeze([...interceptors]);
}

/** The state of one intercepted call. */
class Intercepted implements InterceptedCall {
  args: unknown;
  rewritten = false;
  private answer: Promise<FactsAnswer> | undefined;

  constructor(
    readonly tool: ContractTool,
    private readonly modelArgs: unknown,
    readonly ctx: CallContext,
  ) {
    this.args = modelArgs;
  }

  facts(): Promise<FactsAnswer> {
    if (this.answer === undefined) {
      const args = this.modelArgs === undefined ? {} : this.modelArgs;
      this.answer = isJsonObject(args)
        ? factsOf(this.tool, args, this.ctx)
        : Promise.resolve(
            typeof this.tool.facts === 'function'
              ? { claimed: true, error: new Error('the arguments are not a JSON object') }
              : { claimed: false },
          );
    }
    return this.answer;
  }

  async useRewrite(): Promise<void> {
    if (this.rewritten) return;
    const answer = await this.facts();
    const name = JSON.stringify(this.tool.name);
    if (answer.claimed && 'error' in answer)
      throw new RewriteUnavailableError(
        `cannot run with a rewrite: tool ${name} could not state its facts (${answer.error.message})`,
      );
    if (!answer.claimed || answer.facts.rewrite === undefined)
      throw new RewriteUnavailableError(
        `cannot run with a rewrite: tool ${name} claims no rewrite for these arguments`,
      );
    this.args = answer.facts.rewrite;
    this.rewritten = true;
  }

  /** A frozen view for one interceptor, so none can change what the next one sees. */
  view(): InterceptedCall {
    return Object.freeze({
      tool: this.tool,
      args: this.args,
      rewritten: this.rewritten,
      ctx: this.ctx,
      facts: () => this.facts(),
    });
  }
}

async function applyBefore(interceptor: Interceptor, index: number, call: Intercepted): Promise<void> {
  const answer: BeforeAnswer = await interceptor.before!(call.view());
  if (answer === undefined || answer === null) return;
  if (typeof answer === 'object') {
    if (answer.action === 'continue') return;
    if (answer.action === 'rewrite') return call.useRewrite();
    if (answer.action === 'refuse' && typeof answer.reason === 'string')
      throw new CallRefusedError(answer.reason, interceptor.name);
  }
  throw new InterceptorError(
    `${label(interceptor, index)}: before() must answer nothing, { action: 'continue' }, { action: 'refuse', reason } or { action: 'rewrite' }, got ${JSON.stringify(answer)}`,
  );
}

/**
 * Runs the interceptors step of one call (see `Interceptor` for the order): every `before` in
 * order (a refusal or a throw ends the call before the tool runs), then `proceed` with the
 * arguments to run with and whether they are the tool's rewrite, then every `after` in reverse
 * order. `args` are the model's (validated) arguments; `proceed` runs the rest of the call
 * (validating a rewrite, the time limit and `execute`).
 */
export async function runIntercepted(
  interceptors: readonly Interceptor[],
  tool: ContractTool,
  args: unknown,
  ctx: CallContext,
  proceed: (args: unknown, rewritten: boolean) => Promise<ToolOutput>,
): Promise<ToolOutput> {
  const call = new Intercepted(tool, args, ctx);
  for (let i = 0; i < interceptors.length; i += 1) {
    if (interceptors[i]!.before !== undefined) await applyBefore(interceptors[i]!, i, call);
  }
  let output = await proceed(call.args, call.rewritten);
  for (let i = interceptors.length - 1; i >= 0; i -= 1) {
    const interceptor = interceptors[i]!;
    if (interceptor.after === undefined) continue;
    const replaced: unknown = await interceptor.after(resultOf(output), call.view());
    if (replaced === undefined) continue;
    if (!isToolOutput(replaced))
      throw new InterceptorError(
        `${label(interceptor, i)}: after() must return a tool output (a string, content parts or a result with content) or nothing, got ${kindOf(replaced)}`,
      );
    output = replaced;
  }
  return output;
}
