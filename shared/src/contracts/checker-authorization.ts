import { z } from 'zod';

/**
 * Operator configuration of the checker role: the checker identities allowed to produce
 * VERIFIED. Nothing on the MCP surface reads or writes it.
 */
export const CheckerAuthorizationSchema = z
  .object({
    authorized: z.array(
      z
        .object({
          checker_id: z.string().min(1),
          checker_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 hex>'),
        })
        .strict(),
    ),
  })
  .strict();
export type CheckerAuthorization = z.infer<typeof CheckerAuthorizationSchema>;

export function isAuthorized(authorization: CheckerAuthorization, checker: { checker_id: string; checker_digest: string }): boolean {
  return authorization.authorized.some(
    (entry) => entry.checker_id === checker.checker_id && entry.checker_digest === checker.checker_digest,
  );
}
