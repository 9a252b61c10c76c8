// CLI fixture: a module that exports nothing toolwright can serve.
export const answer = 42;
export class NotATool {}
