import { randomUUID } from '../../../util/random.js';
import { principalKey } from '../../../contract/index.js';
import { principalOf } from '../../auth/principal.js';
import type { HandlerExtra } from '../extra.js';

const connectionIds = new WeakMap<object, string>();

/**
 * Who owns the tasks a request creates and may see them afterwards: the verified principal
 * (`principal:<key>`, whichever connection or process it comes back on), else the transport's
 * session (`session:<id>`), else the connection (`connection:<random id>`, stdio and in memory),
 * else `*`: an unauthenticated stateless request, whose task is seen by whoever holds its id
 * (the id is unguessable). Another owner gets "not found", never the task.
 */
export function taskOwnerOf(extra: HandlerExtra, connection: object | undefined): string {
  const principal = principalOf(extra.authInfo);
  if (principal !== undefined) return `principal:${principalKey(principal)}`;
  if (extra.sessionId !== undefined && extra.sessionId !== '') return `session:${extra.sessionId}`;
  return connection === undefined ? '*' : connectionOwnerOf(connection);
}

/** The owner of the tasks created on `connection` without a principal or session (see `taskOwnerOf`). */
export function connectionOwnerOf(connection: object): string {
  let id = connectionIds.get(connection);
  if (id === undefined) {
    id = randomUUID();
    connectionIds.set(connection, id);
  }
  return `connection:${id}`;
}
