import type { CallContext, ElicitAnswer, Elicitation } from '../../contract/index.js';
import { isJsonObject } from '../../contract/index.js';
import { FACTS_CAPABILITY } from '../server/constants.js';
import { RELATED_TASK_META } from '../server/tasks/constants.js';
import { onElicitation, type ElicitParams, type McpClientLike } from './client-like.js';
import { FactsBatcher } from './facts-batcher.js';

/** The host's elicitor for questions an upstream server asks while one of its tools runs. */
export type HostElicitor = (
  question: Elicitation,
  about: { readonly server: string; readonly tool: string | undefined },
) => Promise<ElicitAnswer>;

/**
 * One upstream server as the consumed tools see it: its name (for errors), the client to call
 * it with (`connectServer` replaces a dead one on the next call), the batcher of its facts
 * questions, and the calls in flight (to route the server's elicitation to the right caller).
 */
export class Upstream {
  private batchers = new WeakMap<object, FactsBatcher>();
  private readonly inflight = new Map<CallContext, string>();
  /** The calls in flight that run as upstream tasks, by the upstream's task id. */
  private readonly tasks = new Map<string, { readonly ctx: CallContext; readonly tool: string }>();
  private readonly wired = new WeakSet<object>();

  constructor(
    readonly server: string,
    private readonly clientOf: () => Promise<McpClientLike>,
    private readonly hostElicit: HostElicitor | undefined,
    /** Told of a failure that may mean the connection is gone (a transport error). */
    readonly onFailure: (err: unknown) => void = () => {},
  ) {}

  /** The client to call with now; answers the server's elicitation (see `elicitationFor`). */
  async client(): Promise<McpClientLike> {
    const client = await this.clientOf();
    if (!this.wired.has(client)) {
      this.wired.add(client);
      onElicitation(client, (params) => this.elicitationFor(params));
    }
    return client;
  }

  /** The facts batcher of `client` (one per client, so a reconnect starts a fresh count). */
  batcherOf(client: McpClientLike): FactsBatcher {
    let batcher = this.batchers.get(client);
    if (batcher === undefined) {
      batcher = new FactsBatcher(client, this.server);
      this.batchers.set(client, batcher);
    }
    return batcher;
  }

  /** True when the server advertised `experimental[FACTS_CAPABILITY]`. */
  static offersFacts(client: McpClientLike): boolean {
    const experimental = client.getServerCapabilities?.()?.experimental;
    return isJsonObject(experimental) && experimental[FACTS_CAPABILITY] !== undefined;
  }

  /** Marks a call in flight until the returned function is called. */
  track(ctx: CallContext, tool: string): () => void {
    this.inflight.set(ctx, tool);
    return () => void this.inflight.delete(ctx);
  }

  /** Marks the call `ctx` as the one that runs the upstream task `taskId`, until the returned function is called. */
  trackTask(taskId: string, ctx: CallContext, tool: string): () => void {
    this.tasks.set(taskId, { ctx, tool });
    return () => void this.tasks.delete(taskId);
  }

  /**
   * Answers one `elicitation/create` from the server. The host's elicitor, when configured,
   * answers every question. Otherwise the question goes to the context of its call (its
   * `ctx.elicit`: the executor's host elicitor, or the client of a proxy): the call running the
   * upstream task the question names (`_meta["io.modelcontextprotocol/related-task"]`), else the
   * call in flight when exactly one call of this server is; with none or several (the 2025
   * protocol does not say which plain call a question belongs to) it is answered `cancel`, as
   * when nobody can be asked.
   */
  async elicitationFor(params: ElicitParams): Promise<Record<string, unknown>> {
    const meta = isJsonObject(params._meta) ? params._meta[RELATED_TASK_META] : undefined;
    const related = isJsonObject(meta) && typeof meta.taskId === 'string' ? this.tasks.get(meta.taskId) : undefined;
    const only =
      related !== undefined
        ? ([related.ctx, related.tool] as const)
        : this.inflight.size === 1
          ? [...this.inflight.entries()][0]
          : undefined;
    return this.ask(params, only?.[0], only?.[1]);
  }

  /**
   * Answers one question of a 2026-07-28 upstream task the call `ctx` runs (an entry of its
   * `inputRequests`): an `elicitation/create` as `elicitationFor` answers it (the host's elicitor
   * when configured, else the call's `ctx.elicit`); any other method (sampling, roots) is left
   * unanswered (`undefined`).
   */
  async taskQuestionFor(
    ctx: CallContext,
    tool: string,
    question: { readonly method: string; readonly params: Record<string, unknown> },
  ): Promise<Record<string, unknown> | undefined> {
    return question.method === 'elicitation/create' ? this.ask(question.params, ctx, tool) : undefined;
  }

  /** Asks the host's elicitor, else `ctx`'s `ctx.elicit`, else answers `cancel`; resolves the wire `ElicitResult`. */
  private async ask(
    params: ElicitParams,
    ctx: CallContext | undefined,
    tool: string | undefined,
  ): Promise<Record<string, unknown>> {
    const question = questionOf(params);
    let answer: ElicitAnswer;
    if (this.hostElicit !== undefined) answer = await this.hostElicit(question, { server: this.server, tool });
    else if (ctx !== undefined) answer = await ctx.elicit(question);
    else answer = { action: 'cancel' };
    return answer.action === 'accept' && answer.content !== undefined
      ? { action: 'accept', content: answer.content }
      : { action: answer.action };
  }
}

function questionOf(params: ElicitParams): Elicitation {
  const message = typeof params.message === 'string' ? params.message : '';
  if (params.mode === 'url' && typeof params.url === 'string') return { message, url: params.url };
  return isJsonObject(params.requestedSchema) ? { message, schema: params.requestedSchema } : { message };
}
