import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { canonicalDigest, sha256Hex } from '../canonical-json.js';
import type { CheckerIdentity } from '../contracts/capability.js';
import type { ProviderRuntime } from '../contracts/provider.js';
import type { CheckerDeclaration } from '../capabilities/define.js';
import { JacobianError } from '../errors.js';
import { runnableFile } from '../module-files.js';

export function platformTag(): string {
  return `${process.platform}-${process.arch}-node${process.versions.node}`;
}

interface FileDigest {
  name: string;
  bytes: number;
  sha256: string;
}

/**
 * Digests of the files of our own code, as they run: the TypeScript sources, or compiled, the
 * JavaScript beside each named source (see module-files.ts), so an identity is that of the code
 * that runs.
 */
async function digestFiles(sources: readonly string[]): Promise<FileDigest[]> {
  const digests: FileDigest[] = [];
  for (const file of sources.map(runnableFile)) {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      throw new JacobianError('PROVIDER_UNAVAILABLE', `source file ${file} cannot be read for its identity digest`, { cause: error });
    }
    digests.push({ name: basename(file), bytes: bytes.length, sha256: sha256Hex(new Uint8Array(bytes)) });
  }
  return digests.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export interface SourceRuntimeOptions {
  provider: string;
  version: string;
  /** Absolute paths of the source files that implement the operation. */
  files: readonly string[];
  features: string[];
  licenseId?: string;
}

/** Runtime record of our own TypeScript code: SOURCE_TREE digest over the files that implement it. */
export async function sourceProviderRuntime(options: SourceRuntimeOptions): Promise<ProviderRuntime> {
  const files = await digestFiles(options.files);
  return {
    provider: options.provider,
    availability: 'AVAILABLE',
    version: options.version,
    digest_kind: 'SOURCE_TREE',
    digest: canonicalDigest(files),
    platform: platformTag(),
    install_tier: 'T0',
    license_id: options.licenseId ?? 'MIT',
    license_files: [],
    features: options.features,
  };
}

/**
 * A checker's identity: its ID and a digest of its code and configuration. Operators
 * authorize exactly this pair; any change to the checker's code changes the digest.
 */
export async function checkerIdentity(declaration: CheckerDeclaration): Promise<CheckerIdentity> {
  const files = await digestFiles(declaration.source_files);
  const digest = canonicalDigest({
    checker_id: declaration.checker_id,
    method: declaration.method,
    files,
    configuration: declaration.configuration,
  });
  return { checker_id: declaration.checker_id, checker_digest: `sha256:${digest}`, method: declaration.method };
}
