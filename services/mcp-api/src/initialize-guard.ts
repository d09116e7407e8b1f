/**
 * A 2025-era `initialize` with malformed params answered as the JSON-RPC spec says: -32602
 * (Invalid params) with a short message naming the field and the rule.
 *
 * The SDK validates an initialize request inside its handler wrapper and throws a plain Error
 * carrying its schema issues as JSON, which its dispatcher answers as -32603 (Internal error)
 * with that dump as the message; it also accepts an empty `protocolVersion` and negotiates as
 * if a revision had been named. Both transports check the opening request here first, with the
 * SDK's own schema (so nothing the SDK accepts is refused, but the empty version), and answer a
 * refusal themselves: HTTP from the parsed body, stdio by guarding the wire transport.
 */
import { SUPPORTED_PROTOCOL_VERSIONS, specTypeSchemas, type JSONRPCErrorResponse, type JSONRPCMessage, type MessageExtraInfo, type Transport } from '@modelcontextprotocol/server';
import { isPlainObject } from '@jacobian/shared';

/** JSON-RPC 2.0 Invalid params. */
const INVALID_PARAMS = -32602;

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
 * The -32602 answer to `message` when it is a 2025-era `initialize` request whose params are
 * malformed; undefined for every other message (which the SDK serves as before).
 */
export function malformedInitializeAnswer(message: unknown): JSONRPCErrorResponse | undefined {
  if (!isPlainObject(message) || message['method'] !== 'initialize') return undefined;
  const id = message['id'];
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const checked = specTypeSchemas.InitializeRequest['~standard'].validate(message);
  let path: readonly PropertyKey[];
  let detail: string | undefined;
  if (checked.issues !== undefined && checked.issues.length > 0) {
    const issue = checked.issues[0];
    path = (issue?.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment));
    detail = issue?.message.replace(/^Invalid input: /, '');
  } else {
    const version = valueAt(message, ['params', 'protocolVersion']);
    if (typeof version !== 'string' || version.trim() !== '') return undefined;
    path = ['params', 'protocolVersion'];
  }
  const field = path.map(String).join('.') || 'params';
  const value = valueAt(message, path);
  const rule = RULES[field];
  const text = rule === undefined ? `initialize: ${field}: ${detail ?? 'invalid'}` : `initialize: ${field} ${rule} (got ${kindOf(value)})`;
  return { jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message: text, data: { path: path.map(String) } } };
}

/**
 * Guard `transport` (before the SDK connects to it): a malformed initialize it receives is
 * answered on it directly and not delivered.
 */
export function guardInitialize<T extends Transport>(transport: T, onError?: (error: Error) => void): T {
  let deliver: Transport['onmessage'];
  const guarded = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    const refusal = malformedInitializeAnswer(message);
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
