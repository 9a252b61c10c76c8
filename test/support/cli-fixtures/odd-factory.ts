// CLI fixture: a `tools()` function that returns something other than an array.
export const tools = (): unknown => ({ salute: true });
