import type { z } from 'zod';
import { ErrorCode, type JacobianError, type JsonPath, type Stage } from '../errors.js';
import type { Diagnostic } from '../contracts/result.js';

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.length === 0 ? 'the request' : issue.path.join('.');
  switch (issue.code) {
    case 'unrecognized_keys': {
      // The path already ends at the unknown key (see zodIssuesToDiagnostics).
      const parent = issue.path.length <= 1 ? 'the request' : issue.path.slice(0, -1).join('.');
      return `${parent}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}; only the fields of the CONTRACT schema are accepted`;
    }
    case 'invalid_type':
      return `${at}: expected ${issue.expected}${issue.message.includes('received') ? ` (${issue.message})` : ''}`;
    case 'custom':
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'invalid_union':
    case 'invalid_value':
    case 'not_multiple_of':
    case 'too_big':
    case 'too_small':
      // zod's own messages already state the rule ("Too big: expected number to be <=256").
      return `${at}: ${issue.message}`;
  }
}

/** Turn zod issues into diagnostics naming the field (path) and the rule (message). */
export function zodIssuesToDiagnostics(error: z.ZodError, prefix: JsonPath, stage: Stage = 'VALIDATION'): Diagnostic[] {
  // One diagnostic per unknown key, with the key in its path, so the field is named there too.
  const issues = error.issues.flatMap((issue): z.core.$ZodIssue[] =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => ({ ...issue, keys: [key], path: [...issue.path, key] })) : [issue],
  );
  return issues.slice(0, 20).map((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    return {
      severity: 'ERROR',
      code: 'INVALID_REQUEST',
      stage,
      message: describeIssue({ ...issue, path }),
      path,
      hint: 'inspect the capability with math.find view CONTRACT for the exact input schema',
    };
  });
}

/** A diagnostic for a JacobianError at its own stage. */
export function errorDiagnostic(error: JacobianError): Diagnostic {
  return {
    severity: 'ERROR',
    code: error.code,
    stage: ErrorCode[error.code].stage,
    message: error.message,
    path: error.path ?? null,
    hint: error.hint ?? null,
  };
}
