import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * A recursive listing of `root`: one line per entry, `relative/path` for folders (with a
 * trailing slash) and `relative/path <size>` for files, sorted. A missing root lists as empty,
 * so "nothing was written" compares equal before the first write, too.
 */
export async function listTree(root: string): Promise<string[]> {
  const lines: string[] = [];
  async function walk(dir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        lines.push(`${relative(root, path)}/`);
        await walk(path);
      } else {
        const { size } = await stat(path);
        lines.push(`${relative(root, path)} ${size}`);
      }
    }
  }
  await walk(root);
  return lines.sort();
}
