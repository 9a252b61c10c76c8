/**
 * The bound a tool's final result gets on every host when neither the tool (`@MaxOutput`) nor
 * the host (`maxOutputChars`) states one: 100,000 characters (about 25,000 tokens, what MCP hosts
 * commonly show a model of one result). Text past it is cut with a marker (see `boundResult`),
 * so one tool returning megabytes cannot flood a client or its model.
 */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000;
