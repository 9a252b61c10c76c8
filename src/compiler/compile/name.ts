/**
 * The tool name a class gets when `@Tool` names none: the class name without a trailing `Tool`
 * (kept when nothing else would remain), in snake_case. A run of capitals is one word, whose
 * last capital starts the next word when a lower-case letter follows; a digit stays with the
 * word before it:
 *
 * - `ReadFileTool` -> `read_file`, `ListDirectory` -> `list_directory`
 * - `HTTPGetTool` -> `http_get`, `GetURLForID` -> `get_url_for_id`
 * - `S3Upload` -> `s3_upload`, `Base64Encode` -> `base64_encode`, `OAuth2Login` -> `o_auth2_login`
 * - `Tool` -> `tool`, `Stool` -> `stool`
 *
 * It never checks the result against MCP's name rule; `compile` does, and reports a name it
 * cannot use (say, from a class named `My$Tool`) as `invalid-name`.
 */
export function inferToolName(className: string): string {
  return inferNameOf(className, ['Tool']);
}

/**
 * The name a class gets when its decorator names none: the class name without the first of
 * `suffixes` it ends with (kept when nothing else would remain), in snake_case as
 * `inferToolName` writes it (`AppConfigResource` -> `app_config` with `['Resource']`).
 */
export function inferNameOf(className: string, suffixes: readonly string[]): string {
  const suffix = suffixes.find((end) => className.length > end.length && className.endsWith(end));
  const base = suffix === undefined ? className : className.slice(0, -suffix.length);
  return base
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
