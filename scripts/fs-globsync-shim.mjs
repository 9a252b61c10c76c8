// `node:fs` plus a `globSync` export. Node 20 has no `fs.globSync`; the stand-in throws a clear
// error when called (the conformance CLI calls it only in `tier-check`, which we never run).
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export const globSync =
  fs.globSync ??
  (() => {
    throw new Error('fs.globSync needs Node >= 22 (used only by the conformance tier-check command)');
  });
