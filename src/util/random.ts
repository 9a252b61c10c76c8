import type * as NodeCrypto from 'node:crypto';

let nodeCrypto: typeof NodeCrypto | undefined;

/**
 * `node:crypto`, loaded the first time a random id is made rather than when toolwright is
 * imported: loading it costs a process about 4 ms, and a server that never parks a call, opens
 * an HTTP session or starts a task never needs it.
 */
function cryptoModule(): typeof NodeCrypto {
  nodeCrypto ??= process.getBuiltinModule('node:crypto');
  return nodeCrypto;
}

/** A random RFC 4122 version 4 UUID (122 random bits), from `crypto.randomUUID`. */
export function randomUUID(): string {
  return cryptoModule().randomUUID();
}

/** `size` cryptographically strong random bytes, from `crypto.randomBytes`. Throws a `RangeError` for a bad size. */
export function randomBytes(size: number): Buffer {
  return cryptoModule().randomBytes(size);
}
