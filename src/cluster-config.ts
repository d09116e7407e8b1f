import { z } from 'zod';
import { JacobianError } from '@jacobian/shared';

const boolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const commaList = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item.length > 0));

/**
 * Environment of the cluster roles (`jacobian api`, `runner`, `checker`). The embedded
 * `serve`/`stdio` commands ignore all of it. AWS credentials are not read here: the S3
 * client takes them from the standard AWS chain (AWS_ACCESS_KEY_ID, profiles, roles).
 */
export const ClusterEnvironmentSchema = z.object({
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
  JACOBIAN_PREFIX: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be 1-32 lowercase letters, digits or dashes').default('jacobian'),
  S3_BUCKET: z.string().min(3).max(63),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_PREFIX: z.string().max(256).default(''),
  S3_FORCE_PATH_STYLE: boolean.optional(),
  JACOBIAN_POOLS: commaList.optional(),
  JACOBIAN_CHECKER_KEY_FILE: z.string().min(1).optional(),
  JACOBIAN_CHECKER_PUBLIC_KEYS: commaList.optional(),
  JACOBIAN_HEARTBEAT_TTL_MS: z.coerce.number().int().min(1000).max(300_000).default(15_000),
  JACOBIAN_DRAIN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /** How long a runner's claim on a job outlives its last renewal: a dead runner's jobs move on after this. */
  JACOBIAN_JOB_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Address of the operations server (/healthz, /readyz, /metrics); `0.0.0.0` in containers. */
  JACOBIAN_OPS_HOST: z.string().min(1).max(253).default('127.0.0.1'),
  /** Its port: 0 picks a free one (logged in the role's ready line); `off` serves no operations port (null). */
  JACOBIAN_OPS_PORT: z
    .string()
    .regex(/^(off|\d{1,5})$/, "must be a port number (0-65535) or 'off'")
    .transform((value) => (value === 'off' ? null : Number(value)))
    .refine((port) => port === null || port <= 65535, "must be a port number (0-65535) or 'off'")
    .default(9464),
});
export type ClusterEnvironment = z.infer<typeof ClusterEnvironmentSchema>;

export type Role = 'api' | 'runner' | 'checker';

const REQUIRED_BY_ROLE: Record<Role, (keyof ClusterEnvironment)[]> = {
  api: ['JACOBIAN_CHECKER_PUBLIC_KEYS'],
  runner: [],
  checker: ['JACOBIAN_CHECKER_KEY_FILE'],
};

/** Parse the cluster environment for one role; the error names the variable and the rule. */
export function loadClusterEnvironment(env: NodeJS.ProcessEnv, role: Role): ClusterEnvironment {
  const parsed = ClusterEnvironmentSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const message = issue?.code === 'invalid_type' && env[variable] === undefined ? 'is required' : (issue?.message ?? 'is invalid');
    throw new JacobianError('CONFIG_INVALID', `${variable}: ${message} (jacobian ${role})`);
  }
  for (const variable of REQUIRED_BY_ROLE[role]) {
    const value = parsed.data[variable];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      throw new JacobianError('CONFIG_INVALID', `${variable}: is required by jacobian ${role}`);
    }
  }
  return parsed.data;
}
