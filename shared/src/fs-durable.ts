import { open } from 'node:fs/promises';

/**
 * Persist a directory's entries (a file created or renamed in it). Not every platform can fsync
 * a directory, so this is best effort: callers sync the file data itself first.
 */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the directory entry is best effort; the data itself is already synced.
  }
}
