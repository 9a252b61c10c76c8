import { factsOf, isJsonObject, resultOf, wrap, type CallContext, type ContractTool, type FactsAnswer, type ToolOutput } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isToolOutput } from '../../contract/shapes.js';
import { CallRefusedError, InterceptorError, RewriteUnavailableError } from './errors.js';
import type { BeforeAnswer, InterceptedCall, Interceptor } from './types.js';

function label(interceptor: Interceptor, index: number): string {
  return interceptor.name === undefined || interceptor.name === '' ? `interceptor ${index + 1}` : `interceptor ${JSON.stringify(interceptor.name)}`;
}

function checkInterceptors(interceptors: readonly Interceptor[]): readonly Interceptor[] {
  if (!Array.isArray(interceptors)) throw new TypeError('applyInterceptors: "interceptors" must be an array');
  interceptors.forEach((interceptor, index) => {
    const where = `applyInterceptors: interceptor ${index + 1}`;
    if (typeof interceptor !== 'object' || interceptor === null) throw new TypeError(`${where} must be an object with before() and/or after()`);
    if (interceptor.before !== undefined && typeof interceptor.before !== 'function') throw new TypeError(`${where}: "before" must be a function`);
    if (interceptor.after !== undefined && typeof interceptor.after !== 'function') throw new TypeError(`${where}: "after" must be a function`);
    if (interceptor.before === undefined && interceptor.after === undefined) throw new TypeError(`${where} has neither before() nor after()`);
    if (interceptor.name !== undefined && typeof interceptor.name !== 'string') throw new TypeError(`${where}: "name" must be a string`);
  });
  return Object.freeze([...interceptors]);
}

/** The state of one intercepted call. */
class Intercepted implements InterceptedCall {
  args: unknown;
  rewritten = false;
  private answer: Promise<FactsAnswer> | undefined;

  constructor(readonly tool: ContractTool, private readonly modelArgs: unknown, readonly ctx: CallContext) {
    this.args = modelArgs;
  }

  facts(): Promise<FactsAnswer> {
    if (this.answer === undefined) {
      const args = this.modelArgs === undefined ? {} : this.modelArgs;
      this.answer = isJsonObject(args)
        ? factsOf(this.tool, args, this.ctx)
        : Promise.resolve(typeof this.tool.facts === 'function' ? { claimed: true, error: new Error('the arguments are not a JSON object') } : { claimed: false });
    }
    return this.answer;
  }

  async useRewrite(): Promise<void> {
    if (this.rewritten) return;
    const answer = await this.facts();
    const name = JSON.stringify(this.tool.name);
    if (answer.claimed && 'error' in answer) throw new RewriteUnavailableError(`cannot run with a rewrite: tool ${name} could not state its facts (${answer.error.message})`);
    if (!answer.claimed || answer.facts.rewrite === undefined) throw new RewriteUnavailableError(`cannot run with a rewrite: tool ${name} claims no rewrite for these arguments`);
    this.args = answer.facts.rewrite;
    this.rewritten = true;
  }

  /** A frozen view for one interceptor, so none can change what the next one sees. */
  view(): InterceptedCall {
    return Object.freeze({ tool: this.tool, args: this.args, rewritten: this.rewritten, ctx: this.ctx, facts: () => this.facts() });
  }
}

async function applyBefore(interceptor: Interceptor, index: number, call: Intercepted): Promise<void> {
  const answer: BeforeAnswer = await interceptor.before!(call.view());
  if (answer === undefined || answer === null) return;
  if (typeof answer === 'object') {
    if (answer.action === 'continue') return;
    if (answer.action === 'rewrite') return call.useRewrite();
    if (answer.action === 'refuse' && typeof answer.reason === 'string') throw new CallRefusedError(answer.reason, interceptor.name);
  }
  throw new InterceptorError(`${label(interceptor, index)}: before() must answer nothing, { action: 'continue' }, { action: 'refuse', reason } or { action: 'rewrite' }, got ${JSON.stringify(answer)}`);
}

async function runIntercepted(interceptors: readonly Interceptor[], args: unknown, ctx: CallContext, inner: ContractTool): Promise<ToolOutput> {
  const call = new Intercepted(inner, args, ctx);
  for (let i = 0; i < interceptors.length; i += 1) {
    if (interceptors[i]!.before !== undefined) await applyBefore(interceptors[i]!, i, call);
  }
  let output = await inner.execute(call.args, ctx);
  for (let i = interceptors.length - 1; i >= 0; i -= 1) {
    const interceptor = interceptors[i]!;
    if (interceptor.after === undefined) continue;
    const replaced: unknown = await interceptor.after(resultOf(output), call.view());
    if (replaced === undefined) continue;
    if (!isToolOutput(replaced)) throw new InterceptorError(`${label(interceptor, i)}: after() must return a tool output (a string, content parts or a result with content) or nothing, got ${kindOf(replaced)}`);
    output = replaced;
  }
  return output;
}

/**
 * Puts interceptors around one tool (see `Interceptor` for the order). The wrapper forwards every
 * property of the tool (see `wrap`). With no interceptors the tool itself is returned. Throws a
 * `TypeError` at once for an interceptor that is not an object with `before` and/or `after`.
 */
export function withInterceptors(tool: ContractTool, interceptors: readonly Interceptor[]): ContractTool {
  const checked = checkInterceptors(interceptors);
  if (checked.length === 0) return tool;
  return wrap(tool, (args, ctx, inner) => runIntercepted(checked, args, ctx, inner));
}

/**
 * Puts the same interceptors around every tool, in the same order, for any host (in process,
 * the executor, the MCP server). Under a permission policy, apply interceptors first
 * (`applyPolicy(applyInterceptors(tools, hooks), policy)`) so they run again with each re-run.
 */
export function applyInterceptors(tools: Iterable<ContractTool>, interceptors: readonly Interceptor[]): ContractTool[] {
  const checked = checkInterceptors(interceptors);
  return [...tools].map((tool) => withInterceptors(tool, checked));
}
