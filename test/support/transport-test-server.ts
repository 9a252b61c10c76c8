import { Server, type CallToolResult } from '@modelcontextprotocol/server';

/** Receives probe events from the test server's tools (`slow started`, `slow aborted`, ...). */
export type Probe = (event: string) => void;

/** A tool the test server offers besides the standard ones. */
export interface ExtraTool {
  readonly name: string;
  readonly run: (signal: AbortSignal) => Promise<string>;
}

const objectSchema = { type: 'object' as const, properties: {} };

/**
 * A real SDK 2.x low-level `Server` for transport tests (no toolwright server layer involved):
 * `echo {text}` answers its text; `whoami` answers the session id the SDK handed the call (or
 * `(none)`); `slow` reports `slow started`, then waits until its signal aborts, reports
 * `slow aborted` and rejects; `noisy` writes `noise from a tool` with `console.log` and answers
 * `ok`. `extra` tools are added as given.
 */
export function makeTestServer(probe: Probe = () => undefined, extra: readonly ExtraTool[] = []): Server {
  const server = new Server({ name: 'transport-test', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler('tools/list', async () => ({
    tools: ['echo', 'whoami', 'slow', 'noisy', ...extra.map((t) => t.name)].map((name) => ({
      name,
      description: `test tool ${name}`,
      inputSchema: objectSchema,
    })),
  }));
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
    switch (request.params.name) {
      case 'echo':
        return text(String(args['text']));
      case 'whoami':
        return text(ctx.sessionId ?? '(none)');
      case 'noisy':
        console.log('noise from a tool');
        return text('ok');
      case 'slow':
        probe('slow started');
        await new Promise<void>((_resolve, reject) => {
          const onAbort = (): void => {
            probe('slow aborted');
            reject(new Error('aborted'));
          };
          if (ctx.mcpReq.signal.aborted) onAbort();
          else ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
        });
        return text('unreachable');
      default: {
        const tool = extra.find((t) => t.name === request.params.name);
        if (tool === undefined)
          return { content: [{ type: 'text', text: `no tool ${request.params.name}` }], isError: true };
        return text(await tool.run(ctx.mcpReq.signal));
      }
    }
  });
  return server;
}
