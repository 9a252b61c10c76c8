export {
  isTerminalStatus,
  type TaskStore,
  type TaskRecord,
  type TaskStatus,
  type TaskError,
  type TaskInit,
  type TaskChange,
  type TaskPage,
  type TaskInputRequest,
} from './task-store.js';
export { MemoryTaskStore, MEMORY_TASK_STORE_DEFAULTS, type MemoryTaskStoreOptions } from './memory-task-store.js';
export { TaskLimitError } from './errors.js';
