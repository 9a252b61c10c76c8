import {
  DecoratorError,
  type Annotations,
  type ToolFlow as FlowClaim,
  type ToolReplay as ReplayClaim,
} from '../contract/index.js';
import { checkOnApply, classTarget, optionalBoolean, plainOptions } from './guards.js';
import { addClaims, type ToolClaims } from './metadata.js';
import { Scopes } from './scopes.js';
import { TaskSupport, type TaskSupportOptions } from './task-support.js';
import type { TaskSupportMode as Support } from '../contract/index.js';

/**
 * A claim decorator that records the same patch on every class: made once, and answered by every
 * call of its factory (nothing in it depends on the call). The patch is frozen, so it is
 * recorded as it is on a class without claims, and each merge onto other claims is made once.
 */
function constantClaimDecorator(name: string, patch: ToolClaims): ClassDecorator {
  const frozen = Object.freeze({
    ...patch,
    ...(patch.annotations === undefined ? {} : { annotations: Object.freeze({ ...patch.annotations }) }),
  });
  const merged = new WeakMap<ToolClaims, ToolClaims>();
  return (...args: unknown[]) => {
    addClaims(classTarget(name, args), frozen, merged);
  };
}

/** A claim decorator whose argument is checked at once and reported, naming the class, when applied. */
function checkedClaimDecorator(name: string, check: () => ToolClaims): ClassDecorator {
  const checked = checkOnApply(name, check);
  return (...args: unknown[]) => {
    const cls = classTarget(name, args);
    addClaims(cls, checked(args));
  };
}

function hint(name: string, key: keyof Omit<Annotations, 'title'>): ClassDecorator {
  return constantClaimDecorator(name, { annotations: { [key]: true } });
}

const READ_ONLY = hint('@ReadOnly()', 'readOnly');
const DESTRUCTIVE = hint('@Destructive()', 'destructive');
const IDEMPOTENT = hint('@Idempotent()', 'idempotent');
const OPEN_WORLD = hint('@OpenWorld()', 'openWorld');
const SEQUENTIAL = constantClaimDecorator('@Sequential()', { sequential: true });
const BARRIER = constantClaimDecorator('@Barrier()', { barrier: true });

/**
 * States that the tool does not change its environment (MCP `readOnlyHint`). Like every hint
 * decorator, it also makes the tool state its annotations, so the others read as `false`.
 */
export function ReadOnly(): ClassDecorator {
  return READ_ONLY;
}

/** States that the tool may destroy or overwrite data (MCP `destructiveHint`). */
export function Destructive(): ClassDecorator {
  return DESTRUCTIVE;
}

/** States that repeating a call with the same arguments has no further effect (MCP `idempotentHint`). */
export function Idempotent(): ClassDecorator {
  return IDEMPOTENT;
}

/** States that the tool reaches an open world of external entities (MCP `openWorldHint`). */
export function OpenWorld(): ClassDecorator {
  return OPEN_WORLD;
}

/** Makes the tool sequential: a batch holding it runs one call at a time, in model order. */
export function Sequential(): ClassDecorator {
  return SEQUENTIAL;
}

/**
 * Makes the tool a barrier: everything before it in a batch completes, it runs alone, and
 * nothing after it starts until it completes. It is listed over MCP as sequential too.
 */
export function Barrier(): ClassDecorator {
  return BARRIER;
}

const RESOURCE_PATTERN = /^\S+$/;

/**
 * Puts the tool on a resource (`"<kind>:<id>"`, e.g. `"shell:session"`): calls of tools that
 * share a resource run one after another, in order. Throws a `DecoratorError` naming the class
 * for an empty key or one with spaces, and for an options object with a `uri` or `uriTemplate`
 * (an MCP resource written the `@rekog/mcp-nest` way), naming `@StaticResource` or
 * `@ResourceTemplate`.
 */
export function Resource(key: string): ClassDecorator {
  return checkedClaimDecorator('@Resource()', () => {
    const mcp = mcpResourceDecoratorFor(key);
    if (mcp !== undefined) {
      throw new DecoratorError(
        `@Resource(): ${mcp.given} looks like an MCP resource, but @Resource(key) is the scheduling claim of a tool (a "<kind>:<id>" key such as "shell:session"); to serve an MCP resource write ${mcp.decorator} on a class with a read() method`,
      );
    }
    if (typeof key !== 'string' || !RESOURCE_PATTERN.test(key)) {
      throw new DecoratorError(
        `@Resource(): the key must be a non-empty string without spaces such as "shell:session", got ${JSON.stringify(key)}`,
      );
    }
    return Object.freeze({ resource: key });
  });
}

/**
 * The decorator an options object given to `@Resource` was meant for (written the
 * `@rekog/mcp-nest` way, `@Resource({ uri })`): `@StaticResource(...)` for a `uri`,
 * `@ResourceTemplate(...)` for a `uriTemplate` or a `uri` with `{variables}`; `undefined` for
 * anything else.
 */
function mcpResourceDecoratorFor(key: unknown): { given: string; decorator: string } | undefined {
  if (typeof key !== 'object' || key === null) return undefined;
  const { uri, uriTemplate } = key as { uri?: unknown; uriTemplate?: unknown };
  if (typeof uriTemplate === 'string')
    return { given: '{ uriTemplate }', decorator: '@ResourceTemplate({ uriTemplate, ... })' };
  if (typeof uri !== 'string') return undefined;
  return /\{[^}]+\}/.test(uri)
    ? { given: '{ uri } with {variables}', decorator: '@ResourceTemplate({ uriTemplate, ... })' }
    : { given: '{ uri }', decorator: '@StaticResource({ uri, ... })' };
}

/**
 * States the tool's data flow: it reads content it cannot trust (web pages, mail), and/or it
 * sends data out. Either forces MCP's `openWorldHint: true`.
 */
export function Flow(flow: FlowClaim): ClassDecorator {
  return checkedClaimDecorator('@Flow()', () => {
    const given = plainOptions('@Flow()', flow, ['readsUntrusted', 'sends']);
    optionalBoolean('@Flow()', 'readsUntrusted', given.readsUntrusted);
    optionalBoolean('@Flow()', 'sends', given.sends);
    return Object.freeze({ flow: Object.freeze({ ...(given as FlowClaim) }) });
  });
}

/**
 * States whether an ambiguous call may be re-run: `safe` may be; `keyed` only with the same
 * idempotency key (the tool deduplicates on `ctx.call.idempotencyKey`). Without it, replay is
 * `unknown`: never re-run.
 */
export function Replay(replay: Exclude<ReplayClaim, 'unknown'>): ClassDecorator {
  return checkedClaimDecorator('@Replay()', () => {
    if (replay !== 'safe' && replay !== 'keyed') {
      throw new DecoratorError(
        `@Replay(): expected "safe" or "keyed", got ${JSON.stringify(replay)} (leave it off for "unknown")`,
      );
    }
    return Object.freeze({ replay });
  });
}

/** Plain-function twins of the claim decorators, for building tools without decorator syntax. */
export const defineClaims = {
  /** `@ReadOnly()` on `cls`. */
  readOnly: (cls: Function) => ReadOnly()(cls),
  /** `@Destructive()` on `cls`. */
  destructive: (cls: Function) => Destructive()(cls),
  /** `@Idempotent()` on `cls`. */
  idempotent: (cls: Function) => Idempotent()(cls),
  /** `@OpenWorld()` on `cls`. */
  openWorld: (cls: Function) => OpenWorld()(cls),
  /** `@Sequential()` on `cls`. */
  sequential: (cls: Function) => Sequential()(cls),
  /** `@Barrier()` on `cls`. */
  barrier: (cls: Function) => Barrier()(cls),
  /** `@Resource(key)` on `cls`. */
  resource: (cls: Function, key: string) => Resource(key)(cls),
  /** `@Flow(flow)` on `cls`. */
  flow: (cls: Function, flow: FlowClaim) => Flow(flow)(cls),
  /** `@Replay(replay)` on `cls`. */
  replay: (cls: Function, replay: Exclude<ReplayClaim, 'unknown'>) => Replay(replay)(cls),
  /** `@Scopes(...scopes)` on `cls`. */
  scopes: (cls: Function, ...scopes: string[]) => Scopes(...scopes)(cls),
  /** `@TaskSupport(support, options)` on `cls`. */
  taskSupport: (cls: Function, support: Support, options?: TaskSupportOptions) => TaskSupport(support, options)(cls),
} as const;
