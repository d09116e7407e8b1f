import { closeSync, fsync, open } from 'node:fs';
import { promisify } from 'node:util';

const openAsync = promisify(open);
const fsyncAsync = promisify(fsync);

/**
 * A directory opened for {@link syncOpenedDirectory}; null where a directory cannot be opened
 * (not every platform can: that sync is best effort). Opening it early lets the open overlap
 * with other work before the sync.
 */
export function openDirectory(dir: string): Promise<number | null> {
  return openAsync(dir, 'r').catch(() => null);
}

/**
 * Persist the entries of a directory opened by {@link openDirectory} (a file created or renamed
 * in it), and close it. Best effort: callers sync the file data itself first.
 */
export async function syncOpenedDirectory(opened: Promise<number | null>): Promise<void> {
  const fd = await opened;
  if (fd === null) return;
  try {
    await fsyncAsync(fd);
  } catch {
    // Durability of the directory entry is best effort; the data itself is already synced.
  } finally {
    // Closing a directory is a plain call, not worth a trip through the thread pool.
    try {
      closeSync(fd);
    } catch {
      // nothing to do: the descriptor is gone either way
    }
  }
}

/** Persist a directory's entries (a file created or renamed in it); best effort, as above. */
export function syncDirectory(dir: string): Promise<void> {
  return syncOpenedDirectory(openDirectory(dir));
}
