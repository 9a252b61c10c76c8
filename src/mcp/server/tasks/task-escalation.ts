import type { HandlerExtra } from '../extra.js';
import type { Escalation } from '../input-rounds/parked-run.js';
import type { ServedTool } from '../served-tools.js';
import { createTaskResultOf, startTaskRun, type TaskServing } from './task-methods.js';

/**
 * How a 2026-07-28 call of the `startsAsCall` task tool `served` continues as a task at
 * `ctx.continueAsTask()` (see `ParkedRun.continueAsTask`): the task is recorded for the request
 * being answered (owned by its caller, with the tool's TTL and poll interval), that request is
 * answered with the extension's `CreateTaskResult` (`resultType: "task"`, `taskId`, `status`, ...;
 * never `requestState` or `inputRequests`), and the call's end ends the task: its result
 * `completed`, its protocol error `failed` (see `TaskRunner.start`). From then on the call runs
 * with the task's request context (see `startTaskRun`): the task's signal, its questions asked
 * through `tasks/update`, its notifications tagged with the task. A task store bound rejects with
 * `-32000` naming it, and no task is recorded.
 */
export function escalationOf(serving: TaskServing, served: ServedTool): Escalation {
  return async (request, ended) => {
    let taskExtra: HandlerExtra | undefined;
    const task = await startTaskRun(serving, served, request, (extra) => {
      taskExtra = extra;
      return ended;
    });
    // The runner starts the run before it resolves the task, so the task's context is known here.
    if (taskExtra === undefined) throw new Error(`task ${task.taskId} was recorded but its run did not start`);
    return { answer: createTaskResultOf(request, task), extra: taskExtra };
  };
}
