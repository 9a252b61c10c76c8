import type { Call, CallContext, ToolRecord } from '../../contract/index.js';
import type { PermissionDecision } from '../permissions/decision.js';
import { contextWith } from '../permissions/context.js';
import type { CallEnd } from './call-end.js';

/*
 * The call core's one place where a host sees a call's steps as they happen. A host gives
 * `CallWatch`es (today: the one `onRecord` makes); the core asks each, as a call starts, for a
 * `CallStepObserver` of that call, tells it every step in the order it happens, then the call's
 * end. A step is a fact the core already knows at that moment, never a copy of the tool's
 * arguments or output beyond what the step names.
 *
 * Steps today: `record` (every record of the call: each `ctx.writeRecord` as it is written, the
 * record the tool returned or its error carries, and the permissions record) and `question` (a
 * permission question under the host's policy, reported once its answer came, with when it was
 * asked). The same observer is where later steps go: a new `kind` of `CallStep`, which an
 * observer that does not know it ignores. (What a call waited for before its turn is known to
 * the host before the core begins, and reaches the tracing through `CallTrace`.)
 */

/**
 * Where a record of a call came from: `written` by the tool with `ctx.writeRecord` (reported as
 * it is written), `returned` in the tool's result or carried by the error it threw (reported when
 * the call ends), or the call core's `permissions` record of the decisions and grants under the
 * host's policy (reported when the permissions step ends, whether the call then succeeds or fails).
 */
export type RecordOrigin = 'written' | 'returned' | 'permissions';

/**
 * One step of a call, as the core reports it: a `record` of the call, or a permission `question`
 * that was answered (its capabilities, the decision it got and when it was asked, in epoch
 * milliseconds; the subject stays out, as it may be an argument's value).
 */
export type CallStep =
  | { readonly kind: 'record'; readonly record: ToolRecord; readonly origin: RecordOrigin }
  | {
      readonly kind: 'question';
      readonly capabilities: readonly string[];
      readonly decision: PermissionDecision;
      readonly askedAt: number;
    };

/** What a host watching one call is told: each step as it happens, then (optionally) how the call ended. */
export interface CallStepObserver {
  step(step: CallStep): void;
  /** Called once, when the call settles (after a time limit ended it, with what the tool finally settled with). */
  end?(end: CallEnd): void;
  /**
   * Called once with the end the host is answered with: the call's own end, or the time limit's
   * when that came first (added for tracing: a span ends when the caller is answered).
   */
  answered?(end: CallEnd): void;
}

/**
 * Watches a host's calls: `begin` is called as each call enters the core (before its arguments
 * are checked) and returns the observer of that call, or `undefined` to watch nothing of it.
 * A throw from `begin`, `step` or `end` is ignored: watching never changes a call.
 */
export interface CallWatch {
  begin(call: Call, tool: string): CallStepObserver | undefined;
}

/** A host's `onRecord` option: told every record of every call, in order (see `CallCoreOptions.onRecord`). */
export type OnRecord = (record: ToolRecord, call: Call) => void;

/** The `CallWatch` of an `onRecord` hook: every `record` step, with the call it belongs to. */
export function recordWatch(onRecord: OnRecord): CallWatch {
  return {
    begin: (call) => ({
      step: (step) => {
        if (step.kind === 'record') onRecord(step.record, call);
      },
    }),
  };
}

/** The observers of one call (those the watches gave), told together; a throw from any is ignored. */
export class CallSteps {
  private constructor(private readonly observers: readonly CallStepObserver[]) {}

  /** Asks every watch for an observer of `call`; `undefined` when none watches it. */
  static begin(watches: readonly CallWatch[], call: Call, tool: string): CallSteps | undefined {
    const observers: CallStepObserver[] = [];
    for (const watch of watches) {
      try {
        const observer = watch.begin(call, tool);
        if (observer !== undefined) observers.push(observer);
      } catch {
        // Watching never changes a call.
      }
    }
    return observers.length === 0 ? undefined : new CallSteps(observers);
  }

  step(step: CallStep): void {
    for (const observer of this.observers) {
      try {
        observer.step(step);
      } catch {
        // Watching never changes a call.
      }
    }
  }

  record(record: ToolRecord | undefined, origin: RecordOrigin): void {
    if (record !== undefined) this.step({ kind: 'record', record, origin });
  }

  end(end: CallEnd): void {
    for (const observer of this.observers) {
      try {
        observer.end?.(end);
      } catch {
        // Watching never changes a call.
      }
    }
  }

  answered(end: CallEnd): void {
    for (const observer of this.observers) {
      try {
        observer.answered?.(end);
      } catch {
        // Watching never changes a call.
      }
    }
  }

  /**
   * A copy of `ctx` whose `writeRecord` keeps the record for the core as before (through the
   * context's own `writeRecord`), then reports it as a `written` step. The record reported is the
   * one the core keeps (`writtenRecordOf(ctx)` right after the write), so a string `data` is
   * raw JSON text as it crosses the wire.
   */
  watchedContext(ctx: CallContext, written: () => ToolRecord | undefined): CallContext {
    const write = ctx.writeRecord;
    return contextWith(ctx, {
      writeRecord: (ns: string, data: unknown) => {
        write(ns, data);
        this.record(written() ?? Object.freeze({ ns, data }), 'written');
      },
    });
  }
}
