export { Scheduler, type SchedulerOptions, type Submission, type Ticket, type TicketStatus } from './scheduler.js';
export { enter, type AdmitOptions } from './admit.js';
export { ScopedSchedulers } from './scopes.js';
export { schedulingClaimsOf, type CallClaims, type SchedulingScope } from './claims.js';
export {
  MemorySchedulingStore,
  TurnLostError,
  heldTurnOf,
  type HeldTurn,
  type SchedulingStore,
  type TurnRequest,
} from './store.js';
