import { z } from 'zod';

/** How a provider's digest was measured. */
export const DigestKind = {
  /** sha256 over the canonical list of files (path, size, sha256) of an installed npm package. */
  PACKAGE_FILES: 'PACKAGE_FILES',
  /** sha256 over the source files of our own TypeScript code that implements the operation. */
  SOURCE_TREE: 'SOURCE_TREE',
  /** sha256 of a native executable's bytes. */
  EXECUTABLE: 'EXECUTABLE',
  /** sha256 over an ordered list of component digests. */
  COMPOSITE: 'COMPOSITE',
} as const;
export type DigestKind = (typeof DigestKind)[keyof typeof DigestKind];

/** T0 ships with npm install; T1 is an OS package; T2 is heavy or licensed. */
export const InstallTier = { T0: 'T0', T1: 'T1', T2: 'T2' } as const;
export type InstallTier = (typeof InstallTier)[keyof typeof InstallTier];

export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits (sha256)');

export const ProviderRuntimeSchema = z
  .object({
    provider: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be a lowercase provider name'),
    availability: z.literal('AVAILABLE'),
    version: z.string().min(1),
    digest_kind: z.enum(DigestKind),
    digest: Sha256Hex,
    platform: z.string().min(1),
    install_tier: z.enum(InstallTier),
    license_id: z.string().min(1),
    license_files: z.array(z.string()),
    features: z.array(z.string()),
  })
  .strict();
export type ProviderRuntime = z.infer<typeof ProviderRuntimeSchema>;
