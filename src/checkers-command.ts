/**
 * `jacobian checkers`: prints the identities of the bundled checkers, in the format of an
 * authorization file. It loads the checker's workspace alone, so the checker image answers it
 * (and checks itself with it when built).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFolderArtifactStore, createProcessPool, keyId } from '@jacobian/shared';
import { createChecker } from '@jacobian/checker';
import type { CommandContext } from './command.js';

export async function run(context: CommandContext): Promise<number> {
  // Identities are digests of the checkers' code, measured at registration: no run executes,
  // nothing is stored or signed. So the key is a throwaway one, the store an empty temporary
  // folder, and the pool starts no child.
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const folder = await mkdtemp(join(tmpdir(), 'jacobian-checkers-'));
  const artifacts = createLocalFolderArtifactStore({ root: folder });
  const executor = createProcessPool({ size: 1, idleChildren: 0 });
  try {
    const checker = await createChecker({ artifacts, executor, authorization: context.config.authorization, signingKey: { privateKey, publicKey, keyId: keyId(publicKey) } });
    process.stdout.write(`${JSON.stringify({ authorized: checker.identities.map(({ checker_id, checker_digest }) => ({ checker_id, checker_digest })) }, null, 2)}\n`);
    return 0;
  } finally {
    await Promise.allSettled([executor.close(), artifacts.close()]);
    await rm(folder, { recursive: true, force: true });
  }
}
