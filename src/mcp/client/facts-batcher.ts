import { isJsonObject, type FactCall, type JsonObject, type ToolFacts } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import { FACTS_METHOD } from '../server/constants.js';
import { requestOn, type McpClientLike } from './client-like.js';

/** One answer of `execution/facts`, read: the facts, the error in their place, or no claim. */
export type RemoteFactsAnswer =
  | { readonly kind: 'facts'; readonly facts: ToolFacts; readonly replay: 'safe' | 'unknown' }
  | { readonly kind: 'error'; readonly error: string; readonly replay: 'safe' | 'unknown' }
  | { readonly kind: 'none'; readonly replay: 'safe' | 'unknown' };

interface Pending {
  readonly name: string;
  readonly args: JsonObject;
  readonly waiters: Array<{ resolve: (answer: RemoteFactsAnswer) => void; reject: (err: Error) => void }>;
}

/**
 * Asks a server's `execution/facts` for the calls of a batch in one request. Every question
 * asked in the same turn of the event loop (before `setImmediate` fires) joins one request, so a
 * host that asks the facts (or replay) of every call of a model response at once, as the
 * executor and a policy do, sends exactly one request per batch. The same call (tool name and
 * arguments) asked twice in a turn, for its facts and its replay, is asked once. A request that
 * fails, or whose answer count is wrong (`execution/facts: N answers for M calls`), rejects every
 * question of the batch with an error naming the server. `requests` counts the requests sent.
 */
export class FactsBatcher {
  private queue = new Map<string, Pending>();
  private scheduled = false;
  /** How many `execution/facts` requests were sent. */
  requests = 0;

  constructor(
    private readonly client: McpClientLike,
    private readonly server: string,
  ) {}

  /** The answer for one call of tool `name` with `args`. */
  ask(name: string, args: JsonObject): Promise<RemoteFactsAnswer> {
    return new Promise((resolve, reject) => {
      const key = `${name}\u0000${JSON.stringify(args)}`;
      let pending = this.queue.get(key);
      if (pending === undefined) {
        pending = { name, args, waiters: [] };
        this.queue.set(key, pending);
      }
      pending.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.queue.values()];
    this.queue = new Map();
    this.scheduled = false;
    if (batch.length === 0) return;
    this.requests += 1;
    let answers: RemoteFactsAnswer[];
    try {
      const reply = await requestOn(
        this.client,
        FACTS_METHOD,
        { calls: batch.map((p) => ({ name: p.name, arguments: p.args })) },
        {},
      );
      const results = isJsonObject(reply) && Array.isArray(reply.results) ? reply.results : undefined;
      if (results === undefined) throw new Error(`${FACTS_METHOD}: the answer has no "results" array`);
      if (results.length !== batch.length)
        throw new Error(`${FACTS_METHOD}: ${results.length} answers for ${batch.length} calls`);
      answers = results.map(readAnswer);
    } catch (err) {
      const error = new Error(`mcp server ${JSON.stringify(this.server)}: ${errorText(err)}`);
      for (const pending of batch) for (const waiter of pending.waiters) waiter.reject(error);
      return;
    }
    batch.forEach((pending, index) => {
      for (const waiter of pending.waiters) waiter.resolve(answers[index]!);
    });
  }
}

/**
 * Reads one wire answer. `replay` is `safe` only when it is exactly `"safe"` (any other answer,
 * `keyed` included, reads as `unknown`). `facts.calls` keeps `null` apart from `[]`; a calls
 * entry that is not an object with a string `tool` makes the answer an error.
 */
function readAnswer(raw: unknown): RemoteFactsAnswer {
  const answer = isJsonObject(raw) ? raw : {};
  const replay = answer.replay === 'safe' ? 'safe' : 'unknown';
  if (typeof answer.error === 'string') return { kind: 'error', error: answer.error, replay };
  if (!isJsonObject(answer.facts)) return { kind: 'none', replay };
  const given = answer.facts.calls;
  if (given !== null && given !== undefined && !Array.isArray(given))
    return { kind: 'error', error: 'the server answered facts whose "calls" is not an array or null', replay };
  let calls: FactCall[] | null = null;
  if (Array.isArray(given)) {
    calls = [];
    for (const call of given) {
      if (!isJsonObject(call) || typeof call.tool !== 'string')
        return { kind: 'error', error: 'the server answered a fact call without a string "tool"', replay };
      const fact: { tool: string; args?: FactCall['args']; text?: string } = { tool: call.tool };
      if (call.args !== undefined) fact.args = call.args;
      if (typeof call.text === 'string') fact.text = call.text;
      calls.push(fact);
    }
  }
  const facts: { calls: FactCall[] | null; rewrite?: JsonObject } = { calls };
  if (isJsonObject(answer.facts.rewrite)) facts.rewrite = answer.facts.rewrite;
  return { kind: 'facts', facts, replay };
}
