import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { journalRecords } from '@jacobian/shared/testing';

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

/**
 * What a local folder artifact store in `root` holds, listed as {@link listTree} lists a folder,
 * whether an artifact's files are written yet or it is still only in the store's journal
 * (`jacobian serve` writes them after a pause in puts, up to 200 ms after the put): an artifact
 * in a live journal record is listed as its two files will be, and a file being written (a temp
 * file, a payload not yet whole) is left out or listed as it will be. So whether a call stored
 * anything shows as soon as it has returned.
 */
export async function listStore(root: string): Promise<string[]> {
  // The journal first: a record that a checkpoint voids after this read has its files written whole.
  const pending = new Map<string, number>();
  for (const record of await journalRecords(root)) {
    pending.set(join('blobs', 'sha256', record.payloadDigest.slice(0, 2), record.payloadDigest), record.payloadBytes);
    pending.set(join('manifests', 'sha256', record.manifestDigest.slice(0, 2), record.manifestDigest), record.manifestBytes);
  }
  const lines = new Set<string>();
  for (const line of await listTree(root)) {
    if (line.endsWith('/')) {
      lines.add(line);
      continue;
    }
    const file = line.slice(0, line.lastIndexOf(' '));
    const name = basename(file);
    if (pending.has(file) || (name.startsWith('.') && name.endsWith('.tmp'))) continue;
    lines.add(line);
  }
  for (const [file, size] of pending) lines.add(`${file} ${size}`);
  return [...lines].sort();
}
