/*
 * The names toolwright's spans and metrics use. Those of the OpenTelemetry semantic conventions
 * are pinned to `@opentelemetry/semantic-conventions` 1.45.0 (the MCP attributes are its
 * incubating `mcp.*` and `gen_ai.*` entries, in "Development"; a test checks every name here
 * against that release), copied rather than imported, as the conventions ask of incubating names.
 * The `toolwright.*` names are toolwright's own, for what the conventions do not cover.
 */

/** The released `@opentelemetry/semantic-conventions` version the names below are pinned to. */
export const SEMCONV_VERSION = '1.45.0';

/** The instrumentation scope of every span and metric (the tracer's and meter's name). */
export const INSTRUMENTATION_SCOPE = 'toolwright';

export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
export const ATTR_MCP_SESSION_ID = 'mcp.session.id';
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const ATTR_MCP_RESOURCE_URI = 'mcp.resource.uri';
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
export const ATTR_RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const ATTR_GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
export const ATTR_NETWORK_TRANSPORT = 'network.transport';
export const ATTR_NETWORK_PROTOCOL_NAME = 'network.protocol.name';

/** `gen_ai.operation.name` of a tool call. */
export const EXECUTE_TOOL = 'execute_tool';
/** `error.type` of a call whose result is `isError` (the conventions' value for a tool's own error). */
export const TOOL_ERROR = 'tool_error';

/** The protocol era a request was served in: `legacy` (2025-11-25 and before) or `modern` (2026-07-28). */
export const ATTR_TOOLWRIGHT_ERA = 'toolwright.era';
/** How a call or request ended: `ok`, `tool_error` (an `isError` result), `error`, `input_required`. */
export const ATTR_TOOLWRIGHT_OUTCOME = 'toolwright.outcome';
/** What a call waited for before its turn (the scheduler's text: the claims it waits behind). */
export const ATTR_TOOLWRIGHT_WAIT_FOR = 'toolwright.wait.for';
/** The capabilities a permission question asked for. */
export const ATTR_TOOLWRIGHT_PERMISSION_CAPABILITIES = 'toolwright.permission.capabilities';
/** The decision a permission question got (`allow_once`, `deny_always`, ...). */
export const ATTR_TOOLWRIGHT_PERMISSION_DECISION = 'toolwright.permission.decision';
/** The input requests of a 2026-07-28 input round, by key and method (`elicit_1 elicitation/create`). */
export const ATTR_TOOLWRIGHT_INPUT_REQUESTS = 'toolwright.input.requests';
/** The upstream server a consumed or proxied call went to (its name in the consumer's config). */
export const ATTR_TOOLWRIGHT_UPSTREAM = 'toolwright.upstream';

/** The span of a scheduling wait (child of the tool's span). */
export const SPAN_WAIT = 'toolwright.wait';
/** The span of a permission question and its answer (child of the tool's span). */
export const SPAN_PERMISSION = 'toolwright.permission';
/** The event on a tool's span when a 2026-07-28 call asked for input (one per round). */
export const EVENT_INPUT_ROUND = 'toolwright.input_round';
/** The event on a tool's span for each record of the call (its namespace only). */
export const EVENT_RECORD = 'toolwright.record';

/** Seconds an MCP request took on the server, by method (and tool): the conventions' histogram. */
export const METRIC_MCP_SERVER_OPERATION_DURATION = 'mcp.server.operation.duration';
/** Seconds an MCP session lasted on the server (HTTP sessions): the conventions' histogram. */
export const METRIC_MCP_SERVER_SESSION_DURATION = 'mcp.server.session.duration';
/** Calls through the call core, by tool and outcome (toolwright's: the conventions count no tool calls). */
export const METRIC_TOOL_CALLS = 'toolwright.tool.calls';
/** Failed calls (an `isError` result or an error), by tool and `error.type`. */
export const METRIC_TOOL_ERRORS = 'toolwright.tool.errors';
/** Seconds a call took through the call core, by tool and outcome, on every host. */
export const METRIC_TOOL_DURATION = 'toolwright.tool.duration';
/** Calls waiting for their turn by their scheduling claims right now. */
export const METRIC_CALLS_WAITING = 'toolwright.calls.waiting';
/** MCP sessions open right now (HTTP sessions). */
export const METRIC_SESSIONS_OPEN = 'toolwright.sessions.open';
/** 2026-07-28 calls parked waiting for their client's answers right now. */
export const METRIC_RUNS_PARKED = 'toolwright.runs.parked';
/*
 * Tasks (issue 27) get `toolwright.tasks.active` here, counted where the task store creates and
 * settles a task, beside the parked runs (see `Metrics.tasks` below).
 */
