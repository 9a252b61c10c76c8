import { createHash } from 'node:crypto';
import { errorText } from '../util/describe.js';

/**
 * A Lua script of toolwright's Redis stores: its text and the SHA-1 Redis knows it by. Every key
 * a script reads or writes is declared in its `KEYS` (never built inside the script), as Redis
 * asks of scripts (and Redis Cluster requires).
 */
export class RedisScript {
  /** The SHA-1 of `source`, in hex: what `EVALSHA` names the script by. */
  readonly sha: string;

  constructor(
    /** Names the script in messages (`replay begin`, `decision list`). */
    readonly name: string,
    /** The Lua text. */
    readonly source: string,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
}

/** What `runScript` needs: one command, bounded, as `RedisConnection.command` sends it. */
export interface ScriptSender {
  /**
   * Sends one command (`['EVALSHA', sha, ...]`) and resolves Redis's reply; rejects as
   * `RedisConnection.command` does.
   */
  command(args: readonly string[]): Promise<unknown>;
}

/** True when `thrown` is Redis's answer to an `EVALSHA` of a script it does not hold (`NOSCRIPT ...`). */
function isNoScript(thrown: unknown): boolean {
  return /^NOSCRIPT\b/.test(errorText(thrown));
}

/**
 * Runs `script` with `keys` and `args`: `EVALSHA` first (Redis keeps the scripts it was sent
 * once, so a call sends 40 hex digits instead of the whole script), then, only when Redis answers
 * `NOSCRIPT` (it restarted, or `SCRIPT FLUSH` ran), `EVAL` with the text, which loads it again.
 * Resolves the script's reply; rejects as `sender.command` does (a Redis error reply of the
 * script itself, `RedisUnavailableError` when Redis is away).
 */
export async function runScript(
  sender: ScriptSender,
  script: RedisScript,
  keys: readonly string[],
  args: readonly string[],
): Promise<unknown> {
  const rest = [String(keys.length), ...keys, ...args];
  try {
    return await sender.command(['EVALSHA', script.sha, ...rest]);
  } catch (thrown) {
    if (!isNoScript(thrown)) throw thrown;
  }
  return sender.command(['EVAL', script.source, ...rest]);
}
