import type { CallContext, Session } from '../../src/index.js';
import { VirtualFs } from './virtual-fs.js';

/** One shell session: a working folder and a file system of its own. */
export interface ShellSession {
  cwd: string;
  readonly fs: VirtualFs;
}

/** A fresh session: `/home/user` (the working folder), `/tmp`, and `/etc/motd`. */
export function newShellSession(): ShellSession {
  const fs = new VirtualFs();
  fs.mkdir('/home/user', true);
  fs.mkdir('/tmp');
  fs.mkdir('/etc');
  fs.write('/etc/motd', 'Welcome to the toolwright shell sample.\n');
  return { cwd: '/home/user', fs };
}

/**
 * The shell sessions of one tool set. Served over MCP, each client connection gets its own
 * session, keyed on the connection object (`ctx.session`, in a `WeakMap`, so it goes away with
 * the connection). In process (no session on the context) every call shares one local session.
 */
export class ShellSessions {
  private readonly byConnection = new WeakMap<Session, ShellSession>();
  private local: ShellSession | undefined;

  of(ctx: CallContext): ShellSession {
    const connection = ctx.session;
    if (connection === undefined) return (this.local ??= newShellSession());
    let session = this.byConnection.get(connection);
    if (session === undefined) this.byConnection.set(connection, (session = newShellSession()));
    return session;
  }
}
