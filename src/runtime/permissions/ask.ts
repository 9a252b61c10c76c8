import type { CallContext, ElicitAnswer, Elicitation, JsonObject } from '../../contract/index.js';
import { deepFreeze } from '../../util/freeze.js';
import { raceTimeout } from '../../util/timeout.js';
import {
  PERMISSION_DECISIONS,
  type AskPermission,
  type PermissionAnswer,
  type PermissionDecision,
} from './decision.js';
import type { PermissionQuestion } from './errors.js';

/*
 * Asking the user about a permission: the question's text and confirmation form, reading the
 * answer, and one bounded ask through the host's `ask` or `ctx.elicit`.
 */

const DECISION_TITLES: ReadonlyMap<PermissionDecision, string> = new Map([
  ['allow_once', 'Allow once'],
  ['allow_always', 'Allow always'],
  ['deny_once', 'Deny once'],
  ['deny_always', 'Deny always'],
]);

/**
 * The confirmation form sent through `ctx.elicit`: a required `decision` (a titled single-select
 * enum of the four decisions) and an optional `reason`.
 */
export const PERMISSION_FORM: JsonObject = deepFreeze({
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      title: 'Decision',
      oneOf: PERMISSION_DECISIONS.map((decision) => ({ const: decision, title: DECISION_TITLES.get(decision)! })),
    },
    reason: { type: 'string', title: 'Reason', description: 'Optional: why, shown to the model when you deny' },
  },
  required: ['decision'],
});

/**
 * The question's text: `Allow the tool "write_file" to use write on "/tmp/a.txt"?`, with the label
 * before the subject when there is one (`on the destination file "/b"`) and `Reason: <reason>` on
 * a second line when the request gave one.
 */
export function questionText(question: PermissionQuestion): string {
  const subject =
    question.label === undefined || question.label === ''
      ? JSON.stringify(question.subject)
      : `the ${question.label} ${JSON.stringify(question.subject)}`;
  const head = `Allow the tool ${JSON.stringify(question.tool)} to use ${question.capabilities.join(', ')} on ${subject}?`;
  return question.reason === undefined || question.reason === '' ? head : `${head}\nReason: ${question.reason}`;
}

/** The elicitation for a question: its text and `PERMISSION_FORM`. */
export function questionElicitation(question: PermissionQuestion): Elicitation {
  return { message: questionText(question), schema: PERMISSION_FORM };
}

/** The reason recorded when nobody answered (cancel, no client that can be asked). */
export const NO_ANSWER_REASON = 'the user did not answer';
/** The reason recorded when asking failed. */
export const ASK_FAILED_REASON = 'the user could not be asked';
/** The reason recorded when no answer came within the policy's `askTimeoutMs`. */
export const ASK_TIMED_OUT_REASON = 'the user did not answer in time';

/**
 * Default time one permission question may wait for its answer (60 s, the MCP SDK's own request
 * timeout, which bounds an elicitation over MCP anyway); then the question counts as deny once.
 */
export const DEFAULT_ASK_TIMEOUT_MS = 60_000;

/** True when `value` is a well-formed `PermissionAnswer`. */
function isAnswer(value: unknown): value is PermissionAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  return (
    typeof decision === 'string' &&
    DECISION_TITLES.has(decision as PermissionDecision) &&
    (reason === undefined || typeof reason === 'string')
  );
}

/** Keeps a non-empty reason; drops an empty one. */
function answer(decision: PermissionDecision, reason: unknown): PermissionAnswer {
  return typeof reason === 'string' && reason.trim() !== '' ? { decision, reason: reason.trim() } : { decision };
}

/**
 * Reads an elicitation answer: `accept` with a known `decision` is that decision (with its
 * reason); `decline` is deny once; `cancel`, or an `accept` without a known decision, is deny
 * once because the user did not answer.
 */
export function answerOfElicitation(reply: ElicitAnswer): PermissionAnswer {
  if (reply.action === 'accept' && isAnswer(reply.content)) return answer(reply.content.decision, reply.content.reason);
  if (reply.action === 'decline') return { decision: 'deny_once' };
  return { decision: 'deny_once', reason: NO_ANSWER_REASON };
}

/**
 * Asks one question: through the host's `ask` when given, otherwise through `ctx.elicit`.
 * Never rejects: a failure to ask is deny once (`the user could not be asked`), no answer is
 * deny once (`the user did not answer`), and so is an answer that has not come within
 * `timeoutMs` (default `DEFAULT_ASK_TIMEOUT_MS`; reason `the user did not answer in time`; a
 * late answer is ignored). `Infinity` waits for ever.
 */
export async function askQuestion(
  question: PermissionQuestion,
  ctx: CallContext,
  ask: AskPermission | undefined,
  timeoutMs: number = DEFAULT_ASK_TIMEOUT_MS,
): Promise<PermissionAnswer> {
  const asking = (async (): Promise<PermissionAnswer> => {
    if (ask !== undefined) {
      const given = await ask(question, ctx);
      return isAnswer(given)
        ? answer(given.decision, given.reason)
        : { decision: 'deny_once', reason: NO_ANSWER_REASON };
    }
    return answerOfElicitation(await ctx.elicit(questionElicitation(question)));
  })();
  try {
    return await raceTimeout(asking, Number.isFinite(timeoutMs) ? timeoutMs : Infinity, () => ({
      decision: 'deny_once' as const,
      reason: ASK_TIMED_OUT_REASON,
    }));
  } catch {
    return { decision: 'deny_once', reason: ASK_FAILED_REASON };
  }
}
