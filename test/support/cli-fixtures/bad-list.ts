// CLI fixture: a `tools` export that is not an array.
export const tools = 'echo';
