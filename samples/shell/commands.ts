import { ToolError, type CallContext, type FactCall } from '../../src/index.js';
import type { ShellSession } from './sessions.js';
import { VirtualFs } from './virtual-fs.js';

/** The commands the shell knows. */
export const SHELL_COMMANDS = ['cd', 'pwd', 'ls', 'echo', 'cat', 'mkdir'] as const;

/** A parsed command line: the command, its words, and an optional `>`/`>>` redirection of its output. */
export interface CommandLine {
  readonly command: string;
  readonly words: readonly string[];
  readonly redirect?: { readonly path: string; readonly append: boolean };
}

/**
 * Splits a command line into words: whitespace separates, `'...'` and `"..."` quote (no escapes),
 * and `>` / `>>` followed by a path redirects the output to a file. Throws a `ToolError` for an
 * unclosed quote, a redirection without a path, or an empty line.
 */
export function parseCommandLine(line: string): CommandLine {
  const words: string[] = [];
  let redirect: { path: string; append: boolean } | undefined;
  let pendingRedirect: boolean | undefined;
  const pattern = /\s*(>>|>|'[^']*'|"[^"]*"|['"]|[^\s'">]+)/gy;
  let match: RegExpExecArray | null;
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect !== undefined) {
      redirect = { path: word, append: pendingRedirect };
      pendingRedirect = undefined;
    } else {
      words.push(word);
    }
    word = '';
    inWord = false;
  };
  let last = 0;
  while ((match = pattern.exec(line)) !== null) {
    const token = match[1]!;
    const separated = match[0].length !== token.length || match.index !== last;
    last = pattern.lastIndex;
    if (separated) endWord();
    if (token === '>' || token === '>>') {
      endWord();
      if (pendingRedirect !== undefined || redirect !== undefined)
        throw new ToolError('only one output redirection is allowed');
      pendingRedirect = token === '>>';
    } else if (token === "'" || token === '"') {
      throw new ToolError(`unclosed ${token} quote`);
    } else {
      word += token.startsWith("'") || token.startsWith('"') ? token.slice(1, -1) : token;
      inWord = true;
    }
  }
  endWord();
  if (pendingRedirect !== undefined) throw new ToolError('a redirection needs a file path after > or >>');
  if (words.length === 0) throw new ToolError('empty command line');
  const [command, ...rest] = words;
  return redirect === undefined ? { command: command!, words: rest } : { command: command!, words: rest, redirect };
}

/** The file-level calls a command line amounts to (its facts), by resolved path. */
export function factsOfCommand(line: CommandLine, cwd: string): FactCall[] {
  const at = (given: string) => VirtualFs.resolve(cwd, given);
  const calls: FactCall[] = [];
  switch (line.command) {
    case 'cat':
      for (const word of line.words) calls.push({ tool: 'read', args: { path: at(word) } });
      break;
    case 'ls':
      calls.push({ tool: 'read', args: { path: at(line.words[0] ?? '.') } });
      break;
    case 'mkdir':
      for (const word of line.words.filter((w) => w !== '-p')) calls.push({ tool: 'write', args: { path: at(word) } });
      break;
    default:
      break;
  }
  if (line.redirect !== undefined) calls.push({ tool: 'write', args: { path: at(line.redirect.path) } });
  return calls;
}

/**
 * Runs one parsed command in a session. Every permission a command needs is asked first
 * (`read` for what it reads, `write` for what it creates or writes, through
 * `ctx.requirePermission`), and only then does it act, so a re-run after a permission question
 * never repeats an effect. Returns the command's output text.
 */
export async function runCommand(line: CommandLine, session: ShellSession, ctx: CallContext): Promise<string> {
  if (!(SHELL_COMMANDS as readonly string[]).includes(line.command)) {
    throw new ToolError(`unknown command ${JSON.stringify(line.command)} (known: ${SHELL_COMMANDS.join(', ')})`);
  }
  const facts = factsOfCommand(line, session.cwd);
  for (const fact of facts) {
    const subject = (fact.args as { path: string }).path;
    await ctx.requirePermission({
      subject,
      path: true,
      capabilities: [fact.tool],
      reason: `${line.command} ${fact.tool === 'read' ? 'reads' : 'writes'} ${subject}`,
    });
  }
  // Every check is done: from here on, act.
  const output = act(line, session);
  if (line.redirect === undefined) return output;
  session.fs.write(VirtualFs.resolve(session.cwd, line.redirect.path), output, line.redirect.append);
  return '';
}

function act(line: CommandLine, session: ShellSession): string {
  const { fs } = session;
  const at = (given: string) => VirtualFs.resolve(session.cwd, given);
  switch (line.command) {
    case 'pwd':
      return `${session.cwd}\n`;
    case 'cd': {
      const target = at(line.words[0] ?? '/home/user');
      if (!fs.isFolder(target)) throw new ToolError(`cd: no such folder: ${target}`);
      session.cwd = target;
      return '';
    }
    case 'ls':
      return fs
        .list(at(line.words[0] ?? '.'))
        .map((name) => `${name}\n`)
        .join('');
    case 'echo':
      return `${line.words.join(' ')}\n`;
    case 'cat':
      return line.words.map((word) => fs.read(at(word))).join('');
    case 'mkdir': {
      const parents = line.words.includes('-p');
      for (const word of line.words.filter((w) => w !== '-p')) fs.mkdir(at(word), parents);
      return '';
    }
    default:
      throw new ToolError(`unknown command ${JSON.stringify(line.command)} (known: ${SHELL_COMMANDS.join(', ')})`);
  }
}
