/**
 * Argument parsing for the `toolwright` command. It only reads the words it is given and never
 * touches the file system, the network or the process: loading modules and serving are the
 * caller's job. Every mistake throws a `UsageError` whose message names the problem.
 */

import { errorText, kindOf } from '../util/describe.js';
import { isJsonObject, ToolwrightError } from '../contract/index.js';
import { LINT_PROVIDERS, SCHEMA_PROFILES, type LintProvider, type SchemaProfile } from '../compiler/index.js';

/** Where `serve --http` listens. Port `0` asks the system for a free port. */
export interface HttpAddress {
  readonly host: string;
  readonly port: number;
}

/** `toolwright serve <module>`: serve the module's tools over stdio, or HTTP with `--http`. */
export interface ServeCommand {
  readonly kind: 'serve';
  readonly module: string;
  readonly http?: HttpAddress;
  readonly stateless: boolean;
  readonly name?: string;
  readonly version?: string;
  /** `--profile`: how the argument schemas are listed (default `exact`). */
  readonly profile?: SchemaProfile;
  /** `--ask`: without a `policy` export, every permission a tool asks for is put to the user (see `policyOf`). */
  readonly ask?: boolean;
}

/** `toolwright list <module>`: print the tool definitions (a table, or MCP JSON with `--json`). */
export interface ListCommand {
  readonly kind: 'list';
  readonly module: string;
  readonly json: boolean;
  readonly profile?: SchemaProfile;
  /** `--lint`: also print the linter's findings (absent when not given). */
  readonly lint?: boolean;
}

/** `toolwright lint <module>`: check the listed schemas against the providers' documented rules. */
export interface LintCommand {
  readonly kind: 'lint';
  readonly module: string;
  readonly profile?: SchemaProfile;
  /** `--provider a,b`: only these providers' rules (default: all). */
  readonly providers?: readonly LintProvider[];
  readonly json: boolean;
}

/** `toolwright call <module> <tool> [json]`: run one call through the MCP path and print it. */
export interface CallCommand {
  readonly kind: 'call';
  readonly module: string;
  readonly tool: string;
  /** The parsed arguments object (`{}` when none were given). */
  readonly args: Record<string, unknown>;
  readonly json: boolean;
  /** `--ask`: questions (permissions, elicitation) are asked on the terminal (see `callCommand`). */
  readonly ask?: boolean;
}

/**
 * `toolwright proxy [NAME=]<upstream>... [--config file.json]`: aggregates upstream MCP servers
 * (a URL, or a stdio command line split at spaces) into one server, over stdio or `--http`.
 */
export interface ProxyCommand {
  readonly kind: 'proxy';
  /** The upstreams given as words: `NAME=` names the server and prefixes its tools with `NAME.`. */
  readonly upstreams: readonly string[];
  readonly config?: string;
  readonly http?: HttpAddress;
  readonly stateless: boolean;
  readonly name?: string;
  readonly version?: string;
  /** `--auth-issuer` and friends: the HTTP side requires tokens of this issuer (see `ProxyAuthConfig`). */
  readonly auth?: ProxyAuthConfig;
  /** `--ask`: a permission no rule decides is put to the user of the proxy's client (see `proxyCommand`). */
  readonly ask?: boolean;
}

/**
 * The proxy's HTTP side as an OAuth 2.1 resource server, from flags or the config file's `auth`:
 * tokens are JWTs checked against the issuer's keys (`jwtVerifier`), issued for `resource`
 * (default: the URL the proxy listens on), with every scope of `requiredScopes`.
 */
export interface ProxyAuthConfig {
  readonly issuer: string;
  readonly resource?: string;
  readonly requiredScopes?: readonly string[];
  /** The issuer's JWKS URL; default: `jwks_uri` from its metadata. */
  readonly jwksUri?: string;
  readonly resourceName?: string;
  /** `false` accepts tokens typed `JWT` or untyped too (see `JwtVerifierOptions.requireAtJwtTyp`); default `true`. */
  readonly requireAtJwtTyp?: boolean;
}

/** `toolwright --help`, `toolwright help [command]` or `<command> --help`. */
export interface HelpCommand {
  readonly kind: 'help';
  readonly topic?: 'serve' | 'list' | 'lint' | 'call' | 'proxy' | 'init';
}

/** `toolwright --version`: print toolwright's own version. */
export interface VersionCommand {
  readonly kind: 'version';
}

/** `toolwright init [dir]`: write a working tool project into `dir` (default: the current folder). */
export interface InitCommand {
  readonly kind: 'init';
  readonly dir?: string;
}

export type CliCommand =
  ServeCommand | ListCommand | LintCommand | CallCommand | ProxyCommand | InitCommand | HelpCommand | VersionCommand;

/** A mistake on the command line. The CLI prints its message and exits with code 2. */
export class UsageError extends ToolwrightError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('cli-usage', message);
  }
}

type CommandName = NonNullable<HelpCommand['topic']>;

/** One command of the `toolwright` command line: everything about it, in one place. */
interface CommandSpec {
  /** The usage line (`usage: ...`, and the command's line of the general help). */
  readonly usage: string;
  /** What `toolwright help <command>` prints below the usage line. */
  readonly help: string;
  /** The flags it takes, and whether each takes a value (`--help` is added to every command). */
  readonly flags: ReadonlyMap<string, 'value' | 'switch'>;
  /** How many positionals it takes. */
  readonly positionals: { readonly min: number; readonly max: number };
  /** The command, from positionals whose count is within bounds and known flags. */
  readonly build: (positionals: readonly string[], flags: ReadonlyMap<string, string>) => CliCommand;
}

/** `--stateless` of `serve` and `proxy` (it needs `--http`). */
function statelessFlag(flags: ReadonlyMap<string, string>): boolean {
  const stateless = flags.has('--stateless');
  if (stateless && !flags.has('--http')) throw new UsageError('--stateless only applies to --http');
  return stateless;
}

/** `--http` of `serve` and `proxy`, parsed. */
function httpFlag(flags: ReadonlyMap<string, string>): { http?: HttpAddress } {
  const http = flags.get('--http');
  return http === undefined ? {} : { http: parseHttpAddress(http) };
}

/** `--name` and `--version` of `serve` and `proxy`. */
function infoFlags(flags: ReadonlyMap<string, string>): { name?: string; version?: string } {
  return {
    ...optional('name', nonEmpty('--name', flags.get('--name'))),
    ...optional('version', nonEmpty('--version', flags.get('--version'))),
  };
}

/** The commands, in the order the general help lists them. */
const COMMAND_SPECS: Readonly<Record<CommandName, CommandSpec>> = {
  serve: {
    usage:
      'toolwright serve <module> [--http [host:]port] [--stateless] [--name n] [--version v] [--profile p] [--ask]',
    help: [
      "Serves the module's tools over MCP: stdio by default (stdout carries only MCP messages),",
      'or streamable HTTP with --http (host defaults to 127.0.0.1; port 0 picks a free port; the URL',
      'is printed on stderr). --stateless serves each HTTP request with a fresh server (no sessions,',
      'so no sampling or elicitation). --name and --version set the server info. --profile',
      `(${SCHEMA_PROFILES.join(', ')}) lists the argument schemas as that profile makes them.`,
      'Permissions (@Requires, ctx.requirePermission) are decided by the module\'s "policy" export (a',
      'PermissionPolicy, or createPolicy options): its rules first, then the user is asked through',
      "the client's elicitation. --ask, without a policy export, asks the user for every permission.",
      'With neither, a tool that needs a permission is denied.',
    ].join('\n'),
    flags: new Map([
      ['--http', 'value'],
      ['--stateless', 'switch'],
      ['--name', 'value'],
      ['--version', 'value'],
      ['--profile', 'value'],
      ['--ask', 'switch'],
    ]),
    positionals: { min: 1, max: 1 },
    build: ([module], flags) => {
      const stateless = statelessFlag(flags);
      return {
        kind: 'serve',
        module: module!,
        ...httpFlag(flags),
        stateless,
        ...infoFlags(flags),
        ...profileFlag(flags),
        ...(flags.has('--ask') ? { ask: true } : {}),
      };
    },
  },
  list: {
    usage: 'toolwright list <module> [--json] [--profile p] [--lint]',
    help: [
      'Prints the tool definitions as a table, or with --json as the exact MCP tool definitions',
      '(with resources or prompts: { tools, resources, resourceTemplates, prompts }).',
      `--profile (${SCHEMA_PROFILES.join(', ')}) lists the schemas as that profile makes them;`,
      "--lint also prints the linter's findings.",
    ].join('\n'),
    flags: new Map([
      ['--json', 'switch'],
      ['--profile', 'value'],
      ['--lint', 'switch'],
    ]),
    positionals: { min: 1, max: 1 },
    build: ([module], flags) => ({
      kind: 'list',
      module: module!,
      json: flags.has('--json'),
      ...profileFlag(flags),
      ...(flags.has('--lint') ? { lint: true } : {}),
    }),
  },
  lint: {
    usage: 'toolwright lint <module> [--profile p] [--provider a,b] [--json]',
    help: [
      "Checks every tool's listed schemas against the documented rules of OpenAI strict mode, Gemini,",
      'Anthropic (standard and strict) and the MCP spec; prints one finding per line (tool, schema,',
      'JSON pointer, [rule id], problem, fix), or with --json the findings as JSON. --provider limits',
      `the rules (${LINT_PROVIDERS.join(', ')}); --profile lints the listing a profile makes.`,
      'Exits 1 when there are findings, 0 when there are none.',
    ].join('\n'),
    flags: new Map([
      ['--profile', 'value'],
      ['--provider', 'value'],
      ['--json', 'switch'],
    ]),
    positionals: { min: 1, max: 1 },
    build: ([module], flags) => {
      const provider = flags.get('--provider');
      return {
        kind: 'lint',
        module: module!,
        ...profileFlag(flags),
        ...(provider === undefined ? {} : { providers: parseProviders(provider) }),
        json: flags.has('--json'),
      };
    },
  },
  call: {
    usage: "toolwright call <module> <tool> ['<json arguments>'] [--json] [--ask]",
    help: [
      'Runs one call through the MCP path (an in-memory client and server) and prints the text of',
      'the result, or with --json the raw CallToolResult. The arguments are one JSON object',
      "(default {}). Exits 1 when the result is an error. Permissions are decided by the module's",
      '"policy" export (a PermissionPolicy, or createPolicy options); --ask puts every question on',
      'the terminal (stderr, answered on stdin): the permissions the policy leaves undecided (every',
      'one without a policy export) and any other question the tool asks. Without --ask nobody is',
      'asked, and an undecided permission is denied.',
    ].join('\n'),
    flags: new Map([
      ['--json', 'switch'],
      ['--ask', 'switch'],
    ]),
    positionals: { min: 2, max: 3 },
    build: ([module, tool, args], flags) => ({
      kind: 'call',
      module: module!,
      tool: tool!,
      args: args === undefined ? {} : parseCallArguments(args),
      json: flags.has('--json'),
      ...(flags.has('--ask') ? { ask: true } : {}),
    }),
  },
  proxy: {
    usage:
      "toolwright proxy [NAME=]<url|'command args'>... [--config file.json] [--http [host:]port] [--stateless] [--ask] [--auth-issuer url [--auth-resource url] [--auth-scopes a,b]]",
    help: [
      'Aggregates MCP servers into one server (stdio by default, or streamable HTTP with --http).',
      'Each upstream is a URL or a stdio command line in one word (split at spaces); NAME=',
      'before it names the server and puts NAME. before its tool names. --config reads a JSON file:',
      '{"servers": [{"name", "command", "args", "env", "cwd", "url", "headers", "prefix"}...],',
      '"maxLLMChars", "maxOutputChars", "policy": {"rules": [...]}, "auth": {"issuer", "resource",',
      '"requiredScopes", "jwksUri", "resourceName", "requireAtJwtTyp"}}. Tools keep their upstream',
      'definitions; two servers listing one name without prefixes is an error. --auth-issuer (or',
      '"auth") makes the HTTP side require JWT access tokens (typ at+jwt, RFC 9068; "requireAtJwtTyp":',
      'false also takes typ JWT or none) of that issuer, issued for --auth-resource (default: the',
      'URL it listens on), with every scope of --auth-scopes. Permissions: "policy" rules first, then',
      'read is allowed and anything else denied; --ask asks the user (through the elicitation of',
      "the proxy's client) for every permission no rule decides instead of denying it.",
    ].join('\n'),
    flags: new Map([
      ['--config', 'value'],
      ['--http', 'value'],
      ['--stateless', 'switch'],
      ['--name', 'value'],
      ['--version', 'value'],
      ['--auth-issuer', 'value'],
      ['--auth-resource', 'value'],
      ['--auth-scopes', 'value'],
      ['--ask', 'switch'],
    ]),
    positionals: { min: 0, max: Number.POSITIVE_INFINITY },
    build: (positionals, flags) => {
      const stateless = statelessFlag(flags);
      const config = nonEmpty('--config', flags.get('--config'));
      if (positionals.length === 0 && config === undefined)
        throw new UsageError(`proxy needs at least one upstream or --config; usage: ${COMMAND_SPECS.proxy.usage}`);
      const auth = proxyAuthOf(flags, flags.has('--http'));
      return {
        kind: 'proxy',
        upstreams: [...positionals],
        ...optional('config', config),
        ...httpFlag(flags),
        stateless,
        ...infoFlags(flags),
        ...optional('auth', auth),
        ...(flags.has('--ask') ? { ask: true } : {}),
      };
    },
  },
  init: {
    usage: 'toolwright init [dir]',
    help: [
      'Writes a working tool project into dir (default: the current folder): package.json with',
      '"type": "module" and build/test/start scripts, tsconfig.json, src/greet.ts, src/server.ts and',
      'test/greet.test.ts. Never overwrites a file. Then install the peers and run npm test.',
    ].join('\n'),
    flags: new Map(),
    positionals: { min: 0, max: 1 },
    build: ([dir]) => (dir === undefined ? { kind: 'init' } : { kind: 'init', dir }),
  },
};

const COMMANDS = Object.keys(COMMAND_SPECS) as CommandName[];

/** The text `--help` prints, for the whole command or one subcommand. */
export function helpText(topic?: HelpCommand['topic']): string {
  if (topic !== undefined) return `usage: ${COMMAND_SPECS[topic].usage}\n\n${COMMAND_SPECS[topic].help}\n`;
  return [
    'usage: toolwright <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((name) => `  ${COMMAND_SPECS[name].usage}`),
    '  toolwright help [command]        show help (also --help, -h)',
    '  toolwright --version             print the toolwright version',
    '',
    '<module> is a compiled ES module (a path, resolved against the current directory) that',
    'exports classes decorated with @Tool, or `tools`: an array of tool classes, instances or',
    'contract tools, or a function returning one (for tools whose constructors need arguments).',
    'Its @StaticResource, @ResourceTemplate and @Prompt classes (or `resources` and `prompts`',
    'arrays) are served and listed beside the tools; a `changes` export announces resource changes,',
    'and an `onServe(served)` export is given the running server, to add and remove tools later.',
    '',
  ].join('\n');
}

/**
 * Parses `[host:]port` (`3000`, `localhost:3000`, `[::1]:3000`). The host defaults to
 * `127.0.0.1`; the port is an integer from 0 to 65535.
 */
export function parseHttpAddress(text: string): HttpAddress {
  const colon = text.lastIndexOf(':');
  const portText = colon < 0 ? text : text.slice(colon + 1);
  let host = colon < 0 ? '127.0.0.1' : text.slice(0, colon);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new UsageError(`--http expects [host:]port with a port from 0 to 65535, got ${JSON.stringify(text)}`);
  }
  if (host === '') throw new UsageError(`--http expects [host:]port, got an empty host in ${JSON.stringify(text)}`);
  return { host, port: Number(portText) };
}

/**
 * Reads the proxy's `--auth-*` flags: none gives `undefined`; `--auth-resource` and
 * `--auth-scopes` need `--auth-issuer`, and all of them need `--http`. Issuer and resource must
 * be URLs; the scopes are a comma-separated list of non-empty words.
 */
function proxyAuthOf(flags: ReadonlyMap<string, string>, http: boolean): ProxyAuthConfig | undefined {
  const issuer = nonEmpty('--auth-issuer', flags.get('--auth-issuer'));
  const resource = nonEmpty('--auth-resource', flags.get('--auth-resource'));
  const scopes = flags.get('--auth-scopes');
  if (issuer === undefined) {
    if (resource !== undefined || scopes !== undefined)
      throw new UsageError(`${resource !== undefined ? '--auth-resource' : '--auth-scopes'} needs --auth-issuer`);
    return undefined;
  }
  if (!http)
    throw new UsageError(
      '--auth-issuer only applies to --http (stdio is not authenticated: a local process trusts its parent)',
    );
  for (const [flag, value] of [
    ['--auth-issuer', issuer],
    ['--auth-resource', resource],
  ] as const) {
    if (value !== undefined && !URL.canParse(value))
      throw new UsageError(`${flag} expects a URL, got ${JSON.stringify(value)}`);
  }
  let requiredScopes: string[] | undefined;
  if (scopes !== undefined) {
    requiredScopes = scopes.split(',').map((scope) => scope.trim());
    if (requiredScopes.some((scope) => scope === '' || /\s/.test(scope)))
      throw new UsageError(`--auth-scopes expects scopes separated by commas, got ${JSON.stringify(scopes)}`);
  }
  return { issuer, ...optional('resource', resource), ...optional('requiredScopes', requiredScopes) };
}

/**
 * Parses the JSON arguments of `call`. They must be one JSON object; anything else throws a
 * `UsageError` (`arguments are not valid JSON: ...` or `arguments must be a JSON object, got ...`).
 */
export function parseCallArguments(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`arguments are not valid JSON: ${errorText(error)}`);
  }
  if (!isJsonObject(value)) {
    throw new UsageError(`arguments must be a JSON object, got ${kindOf(value)}`);
  }
  return value as Record<string, unknown>;
}

/**
 * Parses the words after `toolwright` into a command. Flags may come before or after the
 * positionals, as `--flag value` or `--flag=value`; `--` ends the flags. It never reads the
 * module or checks that the tool exists.
 */
export function parseArgs(argv: readonly string[]): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') return { kind: 'help' };
  if (first === '--version' || first === '-v') {
    if (rest.length > 0) throw new UsageError(`--version takes nothing after it, got ${JSON.stringify(rest[0])}`);
    return { kind: 'version' };
  }
  if (first === 'help') {
    if (rest.length === 0) return { kind: 'help' };
    const topic = rest[0]!;
    if (rest.length > 1 || !isCommand(topic))
      throw new UsageError(
        `help takes one command name (${COMMANDS.join(', ')}), got ${JSON.stringify(rest.join(' '))}`,
      );
    return { kind: 'help', topic };
  }
  if (!isCommand(first)) {
    throw new UsageError(`unknown command ${JSON.stringify(first)} (commands: ${COMMANDS.join(', ')}, help)`);
  }
  const { positionals, flags } = splitWords(first, rest);
  if (flags.has('--help')) return { kind: 'help', topic: first };
  const spec = COMMAND_SPECS[first];
  const shape = spec.positionals;
  if (positionals.length < shape.min || positionals.length > shape.max) {
    const what =
      positionals.length < shape.min
        ? 'is missing arguments'
        : `has too many arguments (${JSON.stringify(positionals[shape.max])})`;
    throw new UsageError(`${first} ${what}; usage: ${spec.usage}`);
  }
  return spec.build(positionals, flags);
}

function profileFlag(flags: ReadonlyMap<string, string>): { profile?: SchemaProfile } {
  const value = flags.get('--profile');
  if (value === undefined) return {};
  if (!(SCHEMA_PROFILES as readonly string[]).includes(value))
    throw new UsageError(`--profile must be one of ${SCHEMA_PROFILES.join(', ')}, got ${JSON.stringify(value)}`);
  return { profile: value as SchemaProfile };
}

function parseProviders(text: string): LintProvider[] {
  const providers = text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  if (providers.length === 0) throw new UsageError(`--provider needs one or more of ${LINT_PROVIDERS.join(', ')}`);
  for (const provider of providers) {
    if (!(LINT_PROVIDERS as readonly string[]).includes(provider))
      throw new UsageError(
        `--provider: unknown provider ${JSON.stringify(provider)} (known: ${LINT_PROVIDERS.join(', ')})`,
      );
  }
  return providers as LintProvider[];
}

function isCommand(word: string): word is CommandName {
  return (COMMANDS as readonly string[]).includes(word);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a non-empty value`);
  return value;
}

/** Splits the words after a command into positionals and known flags (values by flag name). */
function splitWords(
  command: CommandName,
  words: readonly string[],
): { positionals: string[]; flags: Map<string, string> } {
  const known = new Map([...COMMAND_SPECS[command].flags, ['--help', 'switch'] as const]);
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  let onlyPositionals = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (onlyPositionals || !word.startsWith('-') || word === '-') {
      positionals.push(word);
      continue;
    }
    if (word === '--') {
      onlyPositionals = true;
      continue;
    }
    if (word === '-h') {
      flags.set('--help', '');
      continue;
    }
    const equals = word.indexOf('=');
    const name = equals < 0 ? word : word.slice(0, equals);
    const kind = known.get(name);
    if (kind === undefined) {
      throw new UsageError(
        `${command} has no option ${JSON.stringify(name)} (options: ${[...known.keys()].join(', ')})`,
      );
    }
    if (flags.has(name)) throw new UsageError(`${name} is given twice`);
    if (kind === 'switch') {
      if (equals >= 0) throw new UsageError(`${name} takes no value`);
      flags.set(name, '');
    } else if (equals >= 0) {
      flags.set(name, word.slice(equals + 1));
    } else {
      const value = words[i + 1];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      flags.set(name, value);
      i++;
    }
  }
  return { positionals, flags };
}
