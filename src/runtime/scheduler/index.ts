export { Scheduler, type SchedulerOptions, type Submission, type Ticket, type TicketStatus } from './scheduler.js';
export { admit, enter, type AdmitOptions } from './admit.js';
export { ScopedSchedulers } from './scopes.js';
export { schedulingClaimsOf, NO_CLAIMS, BARRIER_CLAIMS, type CallClaims, type SchedulingScope } from './claims.js';
