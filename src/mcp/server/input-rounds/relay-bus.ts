/** A node's subscription on a `RelayBus`. */
export interface RelayListener {
  /** Stops receiving; resolves once stopped. */
  close(): Promise<void>;
}

/**
 * Carries the messages of the parked-run relay between the processes of a cluster, each
 * addressed to one node id. toolwright ships two: `MemoryRelayBus` (the processes are endpoints
 * of one process, for tests and a single machine's in-process setups) and the Redis one
 * (`toolwright/redis`, over Redis pub/sub). A bus never interprets a message.
 */
export interface RelayBus {
  /**
   * Delivers `message` to the listener of `node`. Resolves `true` when a listener received it,
   * `false` when no process listens for `node` (it is gone). Rejects when the bus itself fails
   * (its server is unreachable): the relay then answers the retry with an error that says so.
   */
  send(node: string, message: string): Promise<boolean>;
  /**
   * Calls `onMessage` with every message sent to `node` until the returned listener is closed.
   * Rejects when listening cannot start.
   */
  listen(node: string, onMessage: (message: string) => void): Promise<RelayListener>;
}

/**
 * A `RelayBus` inside one process: endpoints sharing one instance reach each other, as separate
 * processes do over Redis. Delivery is asynchronous (a later macrotask), as over a network. One
 * listener per node: listening again for a node that has one throws
 * `node "<node>" already has a listener on this relay bus`.
 */
export class MemoryRelayBus implements RelayBus {
  private readonly listeners = new Map<string, (message: string) => void>();

  async send(node: string, message: string): Promise<boolean> {
    const listener = this.listeners.get(node);
    if (listener === undefined) return false;
    setImmediate(() => this.listeners.get(node)?.(message));
    return true;
  }

  async listen(node: string, onMessage: (message: string) => void): Promise<RelayListener> {
    if (this.listeners.has(node))
      throw new Error(`node ${JSON.stringify(node)} already has a listener on this relay bus`);
    this.listeners.set(node, onMessage);
    return {
      close: async () => {
        if (this.listeners.get(node) === onMessage) this.listeners.delete(node);
      },
    };
  }
}
