import { Server, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/server';
import { messageKind } from './jsonrpc-shape.js';
import { toolCallAnswererOf, type ToolCallAnswerer } from './direct-tool-call.js';

/**
 * The inbound dispatch methods of the SDK's `Protocol` (`Server` inherits them): what its
 * `connect` wrapper around `transport.onmessage` calls once it has classified a message. The SDK
 * documents them as the extension points role classes override; they are read by shape, never
 * with `instanceof`.
 */
export interface ProtocolDispatch {
  _onrequest(message: JSONRPCMessage, extra?: object): void;
  _onnotification(message: JSONRPCMessage, extra?: object): void;
  _onresponse(message: JSONRPCMessage): void;
}

/** What a transport hands its messages to: the SDK's handler (`onmessage`) and what extra it takes. */
type MessageHandler = (message: JSONRPCMessage, extra?: object) => void;

/** The SDK's own `connect` (a subclass or an instance may put another in its place). */
const SDK_CONNECTS: ReadonlySet<unknown> = new Set([
  Server.prototype.connect,
  (Object.getPrototypeOf(Server.prototype) as { connect?: unknown }).connect,
]);

/**
 * True when `server` connects with the SDK's own `connect` (not one a subclass or the instance
 * put in its place, which may wrap the message handler with work of its own that direct dispatch
 * would skip), so its message handler may be bypassed (see `DirectDispatch`).
 */
export function connectsAsTheSdk(server: object): boolean {
  const connect = (server as { connect?: unknown }).connect;
  return typeof connect === 'function' && SDK_CONNECTS.has(connect);
}

/**
 * Hands a transport's messages straight to a protocol's `_onrequest`, `_onnotification` or
 * `_onresponse` by their kind, instead of through the handler the SDK's `Protocol.connect`
 * installed as the transport's `onmessage`. That handler classifies each message with up to
 * four zod `safeParse`s (two of them failing for every request) before calling the same three
 * methods; a transport that has already checked every message it delivers against the SDK's
 * JSON-RPC schema (`toJsonRpcMessage`, `parseLine`) reads the kind from the keys instead
 * (`messageKind`), with the same verdict. Bind it right after `protocol.connect(transport)`
 * with no `onmessage` set before the connect (the SDK's handler would have called it first).
 * Binding does nothing when the protocol lacks any of the three methods (another SDK version) or
 * no handler is installed; and once the transport's `onmessage` is replaced by someone else,
 * messages go to the new handler again. Bound with the transport's `send` (a 2025-era
 * connection), it also answers toolwright's `tools/call` requests itself, as `_onrequest` would
 * (see `toolCallAnswererOf`).
 */
export class DirectDispatch {
  private target:
    | {
        readonly protocol: ProtocolDispatch;
        readonly wrapper: MessageHandler;
        readonly toolCalls: ToolCallAnswerer | undefined;
      }
    | undefined;

  /**
   * Dispatches to `protocol` while the transport's handler is still `wrapper` (the one its connect
   * installed); with `send`, answers the `tools/call` requests `toolCallAnswererOf` takes itself.
   */
  bind(protocol: object, wrapper: MessageHandler | undefined, send?: (message: JSONRPCMessage) => Promise<void>): void {
    const candidate = protocol as Partial<ProtocolDispatch>;
    if (
      wrapper === undefined ||
      typeof candidate._onrequest !== 'function' ||
      typeof candidate._onnotification !== 'function' ||
      typeof candidate._onresponse !== 'function'
    )
      return;
    const toolCalls = send === undefined ? undefined : toolCallAnswererOf(protocol, send);
    this.target = { protocol: candidate as ProtocolDispatch, wrapper, toolCalls };
  }

  /** Whether messages currently go straight to the protocol, given the transport's handler now. */
  active(onmessage: MessageHandler | undefined): boolean {
    return this.target !== undefined && onmessage === this.target.wrapper;
  }

  /** Delivers `message` (a valid JSON-RPC message) with `extra`: straight to the protocol, or to `onmessage`. */
  deliver(message: JSONRPCMessage, extra: object | undefined, onmessage: MessageHandler | undefined): void {
    const target = this.target;
    if (target !== undefined && onmessage === target.wrapper) {
      const kind = messageKind(message);
      if (kind === 'request') {
        if (target.toolCalls?.(message as JSONRPCRequest) !== true) target.protocol._onrequest(message, extra);
      } else if (kind === 'notification') target.protocol._onnotification(message, extra);
      else target.protocol._onresponse(message);
      return;
    }
    onmessage?.(message, extra);
  }
}
