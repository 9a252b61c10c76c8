import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/server';
import { errorText } from '../../util/describe.js';
import { pause } from '../../util/timeout.js';
import { MAX_TIMEOUT_MS } from '../../util/limits.js';
import { createServer } from '../../mcp/index.js';
import { taskTermsOf } from '../../contract/index.js';
import type { CallCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { CliError, loadTools } from '../load.js';
import { cliPolicyOf } from '../load-policy.js';
import { answerOnTerminal, type TerminalQuestion } from '../terminal-elicit.js';
import { showResult } from '../show-result.js';
import { toolwrightVersion } from '../version.js';

/**
 * `toolwright call <module> <tool> [json] [--json]`: runs one call through the real MCP path: the
 * module's tools on a toolwright server (`createServer`), an SDK 2.x `Client`
 * (`@modelcontextprotocol/client`, an optional peer dependency the command needs) connected to it over an
 * in-memory transport pair, one `tools/call` with a progress token. Log messages (level `debug`
 * and up) and progress updates go to stderr as they arrive. The result goes to stdout: its text
 * (see `showResult`), or with `--json` the raw `CallToolResult` as JSON. An error result prints
 * its text on stderr (or its JSON on stdout) and returns exit code 1; a protocol error (the
 * server refused the request) throws `CliError` with exit code 1. A tool the module does not have
 * throws `CliError` (exit 2) listing the tools it does have, before anything is served.
 *
 * Permissions are decided by the module's `policy` export (see `policyExported`). With `--ask`
 * the client offers form and URL elicitation and answers every question on the terminal (see
 * `answerOnTerminal`): the permission questions of the module's policy, or, without one, of a
 * policy with no rules (every permission is asked), and any question the tool asks itself.
 * Without `--ask` the client offers no elicitation, so nobody is asked: a permission no rule
 * decides is denied (`the user did not answer`), and without a policy every one is
 * (`NoPermissionPolicyError`).
 *
 * A tool with `@TaskSupport` (`required` or `optional`) is called as a task (the 2025-11-25
 * utility): the command prints `[task <id>: <status>]` on stderr at the start and whenever the
 * status changes, polling `tasks/get` at the task's interval, and waits for its result with
 * `tasks/result`; a task that ends `failed` or `cancelled` throws `CliError` with its message (exit 1).
 */
export async function callCommand(command: CallCommand, io: CliIo): Promise<number> {
  const { tools, defaultName, policy: exported } = await loadTools(command.module, io.cwd);
  if (!tools.some((tool) => tool.name === command.tool)) {
    throw new CliError(
      `module ${JSON.stringify(command.module)} has no tool ${JSON.stringify(command.tool)} (tools: ${tools.map((tool) => tool.name).join(', ')})`,
    );
  }
  const policy = cliPolicyOf(exported, command.ask === true);
  const server = createServer({ name: defaultName, version: '0.0.0' }, tools, {
    transport: 'memory',
    ...(policy === undefined ? {} : { policy }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: 'toolwright-cli', version: toolwrightVersion() },
    command.ask === true ? { capabilities: { elicitation: { form: {}, url: {} } } } : {},
  );
  if (command.ask === true)
    client.setRequestHandler(
      'elicitation/create',
      async (request) => (await answerOnTerminal(request.params as TerminalQuestion, io)) as never,
    );
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    io.err(
      `[${level}${logger === undefined ? '' : ` ${logger}`}] ${typeof data === 'string' ? data : JSON.stringify(data)}\n`,
    );
  });
  let result: CallToolResult;
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    await client.setLoggingLevel('debug');
    const onprogress = (progress: { progress: number; total?: number; message?: string }): void => {
      const total = progress.total === undefined ? '' : `/${progress.total}`;
      io.err(
        `[progress ${progress.progress}${total}]${progress.message === undefined ? '' : ` ${progress.message}`}\n`,
      );
    };
    const tool = tools.find((candidate) => candidate.name === command.tool)!;
    result =
      taskTermsOf(tool).support === 'forbidden'
        ? await client.callTool(
            { name: command.tool, arguments: command.args },
            { onprogress, timeout: MAX_TIMEOUT_MS },
          )
        : await callAsTask(client, command, io, onprogress);
  } catch (error) {
    throw new CliError(`calling ${JSON.stringify(command.tool)} failed: ${errorText(error)}`, 1);
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
  }
  if (command.json) io.out(`${JSON.stringify(result)}\n`);
  else if (result.isError === true) io.err(showResult(result));
  else io.out(showResult(result));
  return result.isError === true ? 1 : 0;
}

const ANY = { '~standard': { version: 1, vendor: 'toolwright', validate: (value: unknown) => ({ value }) } };

interface WireTask {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly pollInterval?: number;
}

/**
 * Calls the tool as a task, prints each status it takes, and resolves its result (see
 * `callCommand`). Progress reaches `onprogress` while the client still routes the task's token.
 */
async function callAsTask(
  client: Client,
  command: CallCommand,
  io: CliIo,
  onprogress: (progress: { progress: number; total?: number; message?: string }) => void,
): Promise<CallToolResult> {
  const request = (method: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    client.request(
      { method, params } as never,
      ANY as never,
      { timeout: MAX_TIMEOUT_MS, ...extra } as never,
    ) as Promise<Record<string, unknown>>;
  const created = (
    await request('tools/call', { name: command.tool, arguments: command.args, task: {} }, { onprogress })
  ).task as WireTask;
  const shown = (task: WireTask): string =>
    `[task ${task.taskId}: ${task.status}${task.statusMessage === undefined ? '' : ` (${task.statusMessage})`}]\n`;
  io.err(shown(created));
  let last = created;
  while (last.status === 'working' || last.status === 'input_required') {
    await pause(Math.max(10, last.pollInterval ?? 1_000));
    const now = (await request('tasks/get', { taskId: created.taskId })) as unknown as WireTask;
    if (now.status !== last.status) io.err(shown(now));
    last = now;
  }
  if (last.status !== 'completed')
    throw new Error(
      `the task ended ${last.status}${last.statusMessage === undefined ? '' : `: ${last.statusMessage}`}`,
    );
  const { _meta, ...result } = await request('tasks/result', { taskId: created.taskId });
  const meta = { ...(_meta as Record<string, unknown> | undefined) };
  delete meta['io.modelcontextprotocol/related-task'];
  return (Object.keys(meta).length === 0 ? result : { ...result, _meta: meta }) as CallToolResult;
}
