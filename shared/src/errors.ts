/**
 * The closed set of error codes used across Jacobian.
 *
 * Errors cross process boundaries (child processes now, Redis later) as JSON, so they are
 * recognized by `code`, never by class identity. Each code says whether retrying the same
 * request could give a different outcome (infrastructure) or not (validation, mathematics).
 */
export const ErrorCode = {
  INVALID_REQUEST: { retryable: false, stage: 'VALIDATION' },
  UNKNOWN_CAPABILITY: { retryable: false, stage: 'ADMISSION' },
  MODE_NOT_SUPPORTED: { retryable: false, stage: 'ADMISSION' },
  CAPABILITY_POLICY_DENIED: { retryable: false, stage: 'POLICY' },
  BUDGET_INVALID: { retryable: false, stage: 'ADMISSION' },
  CANONICAL_JSON_INVALID: { retryable: false, stage: 'VALIDATION' },
  SIZE_LIMIT_EXCEEDED: { retryable: false, stage: 'VALIDATION' },
  ARTIFACT_NOT_FOUND: { retryable: false, stage: 'ARTIFACT' },
  ARTIFACT_INTEGRITY: { retryable: false, stage: 'ARTIFACT' },
  ARTIFACT_TYPE_MISMATCH: { retryable: false, stage: 'ARTIFACT' },
  ARTIFACT_STORE_UNAVAILABLE: { retryable: true, stage: 'ARTIFACT' },
  QUEUE_UNAVAILABLE: { retryable: true, stage: 'ADMISSION' },
  PROVIDER_UNAVAILABLE: { retryable: false, stage: 'PROVIDER' },
  PROVIDER_FAILED: { retryable: false, stage: 'PROVIDER' },
  EXECUTION_TIMEOUT: { retryable: false, stage: 'EXECUTION' },
  EXECUTION_CANCELLED: { retryable: false, stage: 'EXECUTION' },
  EXECUTION_CRASHED: { retryable: true, stage: 'EXECUTION' },
  OUTPUT_LIMIT_EXCEEDED: { retryable: false, stage: 'EXECUTION' },
  MEMORY_LIMIT_EXCEEDED: { retryable: false, stage: 'EXECUTION' },
  CHECKER_NOT_AUTHORIZED: { retryable: false, stage: 'VERIFICATION' },
  CHECKER_UNSUPPORTED: { retryable: false, stage: 'VERIFICATION' },
  CHECKER_REJECTED: { retryable: false, stage: 'VERIFICATION' },
  LINEAGE_MISMATCH: { retryable: false, stage: 'VERIFICATION' },
  VERIFICATION_RECORD_INVALID: { retryable: false, stage: 'VERIFICATION' },
  REGISTRATION_INVALID: { retryable: false, stage: 'REGISTRATION' },
  CONFIG_INVALID: { retryable: false, stage: 'CONFIGURATION' },
  /** The reasoning log is OFF: reasoning.write, its resource and its math.run fields do not exist. */
  REASONING_LOG_DISABLED: { retryable: false, stage: 'CONFIGURATION' },
  /** No reasoning run has this ID (it was never opened by PLAN, or belongs to another store). */
  REASONING_RUN_NOT_FOUND: { retryable: false, stage: 'ADMISSION' },
  /** A reasoning entry or a math.run binding breaks the protocol's order; `data.violation` names how. */
  REASONING_PROTOCOL_VIOLATION: { retryable: false, stage: 'ADMISSION' },
  /** A reasoning run reached a bound (cycles or events per run). */
  REASONING_LIMIT_EXCEEDED: { retryable: false, stage: 'ADMISSION' },
  /** The reasoning-log store could not be read or written (I/O, Redis down, persistent write conflicts). */
  REASONING_LOG_UNAVAILABLE: { retryable: true, stage: 'ADMISSION' },
  /** The stored log of a run is damaged (a complete line that does not parse, a gap in sequence numbers). */
  REASONING_LOG_CORRUPT: { retryable: false, stage: 'ADMISSION' },
  INTERNAL: { retryable: false, stage: 'EXECUTION' },
} as const satisfies Record<string, { retryable: boolean; stage: string }>;

export type ErrorCode = keyof typeof ErrorCode;
export const ERROR_CODES = Object.keys(ErrorCode) as [ErrorCode, ...ErrorCode[]];

/** Where in a run's life a diagnostic arose. */
export const Stage = {
  ADMISSION: 'ADMISSION',
  POLICY: 'POLICY',
  VALIDATION: 'VALIDATION',
  EXECUTION: 'EXECUTION',
  PROVIDER: 'PROVIDER',
  ARTIFACT: 'ARTIFACT',
  VERIFICATION: 'VERIFICATION',
  REGISTRATION: 'REGISTRATION',
  CONFIGURATION: 'CONFIGURATION',
} as const;
export type Stage = (typeof Stage)[keyof typeof Stage];
export const STAGES = Object.values(Stage) as [Stage, ...Stage[]];

/** A path into a JSON value, e.g. `['payload', 'edges', 3, 1]`. */
export type JsonPath = (string | number)[];

export interface JacobianErrorOptions {
  path?: JsonPath;
  hint?: string;
  data?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error class. Serialize with {@link JacobianError.toJSON}; revive with {@link toAppError}. */
export class JacobianError extends Error {
  override readonly name = 'JacobianError';
  readonly code: ErrorCode;
  readonly path: JsonPath | undefined;
  readonly hint: string | undefined;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: JacobianErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path;
    this.hint = options.hint;
    this.data = options.data;
  }

  get retryable(): boolean {
    return ErrorCode[this.code].retryable;
  }

  get stage(): Stage {
    return ErrorCode[this.code].stage;
  }

  toJSON(): SerializedError {
    return {
      code: this.code,
      message: this.message,
      ...(this.path === undefined ? {} : { path: this.path }),
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.data === undefined ? {} : { data: this.data }),
    };
  }
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
  path?: JsonPath;
  hint?: string;
  data?: Record<string, unknown>;
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCode, value);
}

/**
 * Turn anything thrown (or received as JSON from another process) into a JacobianError.
 * Unknown errors become INTERNAL; their message is kept but never their stack or payload.
 */
export function toAppError(error: unknown): JacobianError {
  if (error instanceof JacobianError) return error;
  if (typeof error === 'object' && error !== null) {
    const record = error as Record<string, unknown>;
    if (isErrorCode(record['code']) && typeof record['message'] === 'string') {
      const path = Array.isArray(record['path']) ? (record['path'] as JsonPath) : undefined;
      const hint = typeof record['hint'] === 'string' ? record['hint'] : undefined;
      const data =
        typeof record['data'] === 'object' && record['data'] !== null
          ? (record['data'] as Record<string, unknown>)
          : undefined;
      return new JacobianError(record['code'], record['message'], {
        ...(path ? { path } : {}),
        ...(hint ? { hint } : {}),
        ...(data ? { data } : {}),
      });
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return new JacobianError('INTERNAL', message, { cause: error });
}
