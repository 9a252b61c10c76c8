import { ToolwrightError, type ToolRecord } from '../../contract/index.js';

/** One subject's refused capabilities, with the reason given for the refusal, if any. */
export interface PermissionDenial {
  readonly subject: string;
  readonly capabilities: readonly string[];
  readonly reason?: string;
}

/** Describes a denial: `write, read on "/etc/passwd": system files are read-only`. */
function describeDenial(denial: PermissionDenial): string {
  const head = `${denial.capabilities.join(', ')} on ${JSON.stringify(denial.subject)}`;
  return denial.reason === undefined || denial.reason === '' ? head : `${head}: ${denial.reason}`;
}

/**
 * A permission was refused (by a rule, a remembered decision or the user). It becomes the tool's
 * error result. The message is `permission denied: ` followed by each denial as
 * `<capabilities> on "<subject>"` plus `: <reason>` when one was given, joined by `; `, e.g.
 * `permission denied: write on "/etc/passwd": system files are read-only`.
 *
 * `record` is set by the call core (under a policy) when the error leaves the call: the same record a
 * successful call carries (see `PERMISSIONS_RECORD_NS`), so a host can keep denials too.
 */
export class PermissionDeniedError extends ToolwrightError {
  override readonly name = 'PermissionDeniedError';
  readonly denials: readonly PermissionDenial[];
  record?: ToolRecord;

  constructor(denials: readonly PermissionDenial[]) {
    super('permission-denied', `permission denied: ${denials.map(describeDenial).join('; ')}`);
    this.denials = Object.freeze(
      denials.map((d) => Object.freeze({ ...d, capabilities: Object.freeze([...d.capabilities]) })),
    );
  }
}

/** What the user is asked: may `tool` have `capabilities` on `subject`? */
export interface PermissionQuestion {
  readonly tool: string;
  readonly subject: string;
  /** What the subject is to the tool ("source file"), when the request labelled it. */
  readonly label?: string;
  readonly capabilities: readonly string[];
  readonly reason?: string;
}

/**
 * @deprecated Permission checks now wait in place for the user's answer; nothing throws this
 * any more. Kept so code that names it still compiles; it will be removed.
 */
export class PermissionNeeded extends ToolwrightError {
  override readonly name = 'PermissionNeeded';
  readonly question: PermissionQuestion;

  constructor(question: PermissionQuestion) {
    super(
      'permission-needed',
      `permission needed: ${question.capabilities.join(', ')} on ${JSON.stringify(question.subject)} (the call core asks the user and runs the tool again; this never reaches the model)`,
    );
    this.question = Object.freeze({ ...question, capabilities: Object.freeze([...question.capabilities]) });
  }
}

/**
 * A call kept asking: after `limit` questions in one call, a further missing permission fails
 * the call with `tool "<name>" needed more than <limit> permission questions in one call`.
 */
export class TooManyPermissionQuestionsError extends ToolwrightError {
  override readonly name = 'TooManyPermissionQuestionsError';
  readonly limit: number;

  constructor(tool: string, limit: number) {
    super(
      'too-many-permission-questions',
      `tool ${JSON.stringify(tool)} needed more than ${limit} permission questions in one call`,
    );
    this.limit = limit;
  }
}
