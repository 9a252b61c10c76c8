// CLI fixture: a `tools()` function that throws, and one that returns no array.
export function tools(): never {
  throw new Error('SALUTE_GREETING is not set');
}
