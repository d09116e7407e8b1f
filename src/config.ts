import { homedir } from 'node:os';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  CheckerAuthorizationSchema,
  JacobianError,
  OperatorPolicySchema,
  ReasoningMode,
  type CheckerAuthorization,
  type OperatorPolicy,
} from '@jacobian/shared';

const commaList = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item.length > 0));

/** Every environment variable Jacobian reads, parsed once in the entry point. */
export const EnvironmentSchema = z.object({
  JACOBIAN_DATA_DIR: z.string().min(1).optional(),
  JACOBIAN_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  JACOBIAN_POLICY_FILE: z.string().min(1).optional(),
  JACOBIAN_POLICY_PROFILE: z.enum(['DEFAULT', 'COMPUTE_VERIFY_NO_RETRIEVAL']).optional(),
  JACOBIAN_HIDE_IDS: commaList.optional(),
  JACOBIAN_HIDE_DOMAINS: commaList.optional(),
  JACOBIAN_HIDE_TAGS: commaList.optional(),
  JACOBIAN_HIDE_MODES: commaList.optional(),
  JACOBIAN_CHECKER_AUTHORIZATION: z
    .string()
    .min(1)
    .optional()
    .describe("'bundled' (default: the checkers shipped with Jacobian), 'none', or the path of a JSON authorization file"),
  JACOBIAN_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).optional(),
  JACOBIAN_REASONING_MODE: z
    .enum(ReasoningMode, { error: 'must be OFF, AUDIT or REQUIRED' })
    .optional()
    .describe('the reasoning log: OFF (default: no reasoning.write tool), AUDIT (record protocol violations) or REQUIRED (reject unbound math.run calls)'),
  JACOBIAN_AUTH_FILE: z
    .string()
    .min(1)
    .optional()
    .describe('bearer-token authentication of /mcp: a JSON file of static token digests with their tenants and/or an external OAuth authorization server'),
  XDG_DATA_HOME: z.string().optional(),
});

export interface JacobianConfig {
  dataDir: string;
  concurrency: number;
  policy: OperatorPolicy;
  authorization: CheckerAuthorization | 'bundled';
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** The reasoning log's mode; OFF creates nothing and registers nothing. */
  reasoningMode: ReasoningMode;
  /** JACOBIAN_AUTH_FILE: when set, /mcp requires a bearer token (read and checked at start). */
  authFile: string | undefined;
}

async function readJsonFile(path: string, variable: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `${variable}: cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new JacobianError('CONFIG_INVALID', `${variable}: ${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

function describeIssues(error: z.ZodError, variable: string): string {
  return error.issues.map((issue) => `${variable}${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`).join('; ');
}

/** Read and validate the environment; errors name the variable and the rule. */
export async function loadConfig(env: NodeJS.ProcessEnv): Promise<JacobianConfig> {
  const parsed = EnvironmentSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError('CONFIG_INVALID', `${String(issue?.path[0] ?? 'environment')}: ${issue?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  let policyInput: Record<string, unknown> = {};
  if (e.JACOBIAN_POLICY_FILE !== undefined) {
    const file = await readJsonFile(e.JACOBIAN_POLICY_FILE, 'JACOBIAN_POLICY_FILE');
    if (typeof file !== 'object' || file === null || Array.isArray(file)) {
      throw new JacobianError('CONFIG_INVALID', 'JACOBIAN_POLICY_FILE: the file must hold a JSON object');
    }
    policyInput = file as Record<string, unknown>;
  }
  const merged = {
    ...policyInput,
    ...(e.JACOBIAN_POLICY_PROFILE ? { profile: e.JACOBIAN_POLICY_PROFILE } : {}),
    ...(e.JACOBIAN_HIDE_IDS ? { hidden_ids: [...((policyInput['hidden_ids'] as string[] | undefined) ?? []), ...e.JACOBIAN_HIDE_IDS] } : {}),
    ...(e.JACOBIAN_HIDE_DOMAINS ? { hidden_domains: [...((policyInput['hidden_domains'] as string[] | undefined) ?? []), ...e.JACOBIAN_HIDE_DOMAINS] } : {}),
    ...(e.JACOBIAN_HIDE_TAGS ? { hidden_tags: [...((policyInput['hidden_tags'] as string[] | undefined) ?? []), ...e.JACOBIAN_HIDE_TAGS] } : {}),
    ...(e.JACOBIAN_HIDE_MODES ? { hidden_modes: [...((policyInput['hidden_modes'] as string[] | undefined) ?? []), ...e.JACOBIAN_HIDE_MODES] } : {}),
  };
  const policy = OperatorPolicySchema.safeParse(merged);
  if (!policy.success) {
    throw new JacobianError('CONFIG_INVALID', `operator policy (JACOBIAN_POLICY_FILE / JACOBIAN_HIDE_*): ${describeIssues(policy.error, 'policy')}`);
  }
  let authorization: CheckerAuthorization | 'bundled' = 'bundled';
  const authSetting = e.JACOBIAN_CHECKER_AUTHORIZATION ?? 'bundled';
  if (authSetting === 'none') authorization = { authorized: [] };
  else if (authSetting !== 'bundled') {
    const file = CheckerAuthorizationSchema.safeParse(await readJsonFile(authSetting, 'JACOBIAN_CHECKER_AUTHORIZATION'));
    if (!file.success) {
      throw new JacobianError('CONFIG_INVALID', `JACOBIAN_CHECKER_AUTHORIZATION: ${describeIssues(file.error, authSetting)}`);
    }
    authorization = file.data;
  }
  const dataHome = e.XDG_DATA_HOME && e.XDG_DATA_HOME.length > 0 ? e.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return {
    dataDir: e.JACOBIAN_DATA_DIR ?? join(dataHome, 'jacobian'),
    concurrency: e.JACOBIAN_CONCURRENCY ?? Math.max(1, availableParallelism()),
    policy: policy.data,
    authorization,
    logLevel: e.JACOBIAN_LOG_LEVEL ?? 'info',
    reasoningMode: e.JACOBIAN_REASONING_MODE ?? 'OFF',
    authFile: e.JACOBIAN_AUTH_FILE,
  };
}
