/**
 * The live records of a local folder store's journals, read from outside the store (as a test
 * reads the folder of a `jacobian serve` it started): what the store holds although its files may
 * not be written yet (see artifacts/local-journal.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { decodeHeader, scanRecords } from '../artifacts/local-journal.js';

/** One artifact a journal record holds: its digests (hex) and sizes. */
export interface JournalRecord {
  payloadDigest: string;
  payloadBytes: number;
  manifestDigest: string;
  manifestBytes: number;
}

/**
 * The records of every journal file in `root/journal` that are live (written in the file's
 * current epoch, not voided by a checkpoint); none when there is no journal. A record being
 * written as this reads is skipped, as recovery skips a torn one.
 */
export async function journalRecords(root: string): Promise<JournalRecord[]> {
  const dir = path.join(root, 'journal');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: JournalRecord[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.log')).sort()) {
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(dir, name));
    } catch (error) {
      // Removed by a clean stop meanwhile: its records were checkpointed into files first.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const header = decodeHeader(bytes);
    if (header === null) continue;
    for (const entry of scanRecords(bytes, header.epoch)) {
      records.push({ payloadDigest: entry.payloadDigest, payloadBytes: entry.payloadBytes.byteLength, manifestDigest: entry.manifestDigest, manifestBytes: entry.manifestBytes.byteLength });
    }
  }
  return records;
}
