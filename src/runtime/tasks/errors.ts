import { ToolwrightError } from '../../contract/index.js';

/**
 * A task store refused a new task because one of its bounds is reached. Retryable: the same call
 * succeeds once a task ends or expires. Code `task-limit`; `limit` names the bound.
 */
export class TaskLimitError extends ToolwrightError {
  override readonly name = 'TaskLimitError';
  readonly retryable = true;
  constructor(
    readonly limit: 'maxLivePerOwner' | 'maxLive' | 'maxTasks',
    readonly max: number,
  ) {
    super('task-limit', taskLimitMessage(limit, max));
  }
}

function taskLimitMessage(limit: TaskLimitError['limit'], max: number): string {
  if (limit === 'maxLivePerOwner')
    return `too many tasks of this caller are running (maxLivePerOwner ${max}); retry once one has ended`;
  if (limit === 'maxLive')
    return `too many tasks are running on this server (maxLive ${max}); retry once one has ended`;
  return `this server keeps as many tasks as it may (maxTasks ${max}); retry once older ones have expired`;
}
