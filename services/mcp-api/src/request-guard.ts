/**
 * A 2025-era request with malformed params answered as the JSON-RPC spec says: -32602 (Invalid
 * params) with a short message naming the field and the rule.
 *
 * The SDK validates these requests inside its handler wrapper and throws a plain Error carrying
 * its schema issues as JSON, which its dispatcher answers as -32603 (Internal error) with that
 * dump as the message (`initialize`, `resources/read`, `prompts/get`, the list methods;
 * `tools/call` gets -32602 with the dump). It also accepts an empty `protocolVersion` in
 * `initialize` and negotiates as if a revision had been named. Both transports check each
 * request of the methods this server serves here first, with the SDK's own schemas (so nothing
 * the SDK accepts is refused, but the empty version), and answer a refusal themselves: HTTP from
 * the parsed body, stdio by guarding the wire transport. Modern (2026-07-28) requests, which
 * carry the protocol version in `_meta`, are left to the SDK, whose envelope checks answer -32602.
 */
import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS, specTypeSchemas, type JSONRPCErrorResponse, type JSONRPCMessage, type MessageExtraInfo, type Transport } from '@modelcontextprotocol/server';
import { isPlainObject } from '@jacobian/shared';

/** JSON-RPC 2.0 Invalid params. */
const INVALID_PARAMS = -32602;

/** The SDK's schema of each 2025-era request this server serves, by method. */
const REQUEST_SCHEMAS = {
  initialize: specTypeSchemas.InitializeRequest,
  ping: specTypeSchemas.PingRequest,
  'tools/list': specTypeSchemas.ListToolsRequest,
  'tools/call': specTypeSchemas.CallToolRequest,
  'resources/list': specTypeSchemas.ListResourcesRequest,
  'resources/templates/list': specTypeSchemas.ListResourceTemplatesRequest,
  'resources/read': specTypeSchemas.ReadResourceRequest,
  'prompts/list': specTypeSchemas.ListPromptsRequest,
  'prompts/get': specTypeSchemas.GetPromptRequest,
} as const;

/** The rule each field of the initialize params follows, as a client author reads it. */
const RULES: Readonly<Record<string, string>> = {
  params: 'must be an object with protocolVersion, capabilities and clientInfo',
  'params.protocolVersion': `must be a non-empty string naming a protocol revision, such as "${SUPPORTED_PROTOCOL_VERSIONS[0] ?? '2025-11-25'}"`,
  'params.capabilities': 'must be an object (the client capabilities; {} for none)',
  'params.clientInfo': 'must be an object with string name and version',
  'params.clientInfo.name': 'must be a string',
  'params.clientInfo.version': 'must be a string',
};

/** What a value is, in a word, for "got …". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === '') return 'an empty string';
  const words: Partial<Record<string, string>> = { undefined: 'nothing', object: 'an object', number: 'a number', boolean: 'a boolean' };
  return words[typeof value] ?? `a ${typeof value}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isPlainObject(value) && !Array.isArray(value)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The -32602 answer to `message` when it is a 2025-era request of a method this server serves
 * whose params are malformed; undefined for every other message (which the SDK serves as before).
 */
export function malformedRequestAnswer(message: unknown): JSONRPCErrorResponse | undefined {
  if (!isPlainObject(message)) return undefined;
  const method = message['method'];
  const id = message['id'];
  if (typeof method !== 'string' || !Object.hasOwn(REQUEST_SCHEMAS, method) || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const params = message['params'];
  // Params that are not an object make the message an invalid JSON-RPC request, which the SDK answers (-32600).
  if (params !== undefined && !isPlainObject(params)) return undefined;
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  if (isPlainObject(meta) && meta[PROTOCOL_VERSION_META_KEY] !== undefined) return undefined;
  const checked = REQUEST_SCHEMAS[method as keyof typeof REQUEST_SCHEMAS]['~standard'].validate(message);
  let path: readonly PropertyKey[];
  let detail: string | undefined;
  if (checked.issues !== undefined && checked.issues.length > 0) {
    const issue = checked.issues[0];
    path = (issue?.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment));
    detail = issue?.message.replace(/^Invalid input: /, '');
  } else {
    const version = valueAt(message, ['params', 'protocolVersion']);
    if (method !== 'initialize' || typeof version !== 'string' || version.trim() !== '') return undefined;
    path = ['params', 'protocolVersion'];
  }
  const field = path.map(String).join('.') || 'params';
  const value = valueAt(message, path);
  const rule = method === 'initialize' ? RULES[field] : undefined;
  const got = ` (got ${kindOf(value)})`;
  const text = rule === undefined ? `${method}: ${field}: ${detail ?? 'invalid'}${detail?.includes('received') === true ? '' : got}` : `${method}: ${field} ${rule}${got}`;
  return { jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message: text.slice(0, 500), data: { path: path.map(String) } } };
}

/**
 * Guard `transport` (before the SDK connects to it): a malformed request it receives is
 * answered on it directly and not delivered. `onMessage` sees every message received, first.
 */
export function guardRequests<T extends Transport>(transport: T, onError?: (error: Error) => void, onMessage?: (message: JSONRPCMessage) => void): T {
  let deliver: Transport['onmessage'];
  const guarded = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    onMessage?.(message);
    const refusal = malformedRequestAnswer(message);
    if (refusal === undefined) deliver?.(message, extra);
    else transport.send(refusal).catch((error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error))));
  };
  // The SDK sets onmessage once, and the transport calls whatever it holds.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (deliver === undefined ? undefined : guarded),
    set: (handler: Transport['onmessage']) => {
      deliver = handler;
    },
  });
  return transport;
}
