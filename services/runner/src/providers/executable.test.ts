import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExecutableIdentity, compositeIdentity, fileStamps, linkedLibraries, rememberVerifiedStamp, type ProbedExecutable } from './executable.js';

describe('checkExecutableIdentity (the stat-stamped identity guard of PARI/GP, Singular, CBC and glpsol)', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'jacobian-identity-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function probed(name: string, content: string): Promise<ProbedExecutable> {
    const binary = join(folder, name);
    await writeFile(binary, content, { mode: 0o755 });
    const stamp = await fileStamps(binary, []);
    const { components, digest } = await compositeIdentity(binary, []);
    rememberVerifiedStamp(digest, stamp);
    return { binary, components, digest };
  }

  it('passes for the probed bytes, and again after a rewrite with the same bytes (new stat, same digest)', async () => {
    const tools = await probed('same', '#!/bin/sh\necho 1\n');
    await expect(checkExecutableIdentity(tools, 'libnone', 'Tool')).resolves.toBeUndefined();
    await writeFile(tools.binary, '#!/bin/sh\necho 1\n', { mode: 0o755 });
    await expect(checkExecutableIdentity(tools, 'libnone', 'Tool')).resolves.toBeUndefined();
  });

  it('is PROVIDER_FAILED naming the tool when the bytes changed under it, or when the digest is not the probed one', async () => {
    const tools = await probed('changed', '#!/bin/sh\necho 1\n');
    await writeFile(tools.binary, '#!/bin/sh\necho 2\n', { mode: 0o755 });
    await expect(checkExecutableIdentity(tools, 'libnone', 'Tool')).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
    await expect(checkExecutableIdentity(tools, 'libnone', 'Tool')).rejects.toThrow(/the Tool installation at .* is not the one probed/);
    const other = await probed('other', '#!/bin/sh\necho 3\n');
    await expect(checkExecutableIdentity({ ...other, digest: `sha256:${'0'.repeat(64)}` }, 'libnone', 'Tool')).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });

  it('is PROVIDER_FAILED when the executable is gone', async () => {
    const tools = await probed('gone', '#!/bin/sh\necho 1\n');
    await rm(tools.binary);
    await expect(checkExecutableIdentity(tools, 'libnone', 'Tool')).rejects.toThrow();
  });
});

describe('linkedLibraries', () => {
  it('with several prefixes, lists the libraries of each (as the MILP solvers, which load five, ask)', async () => {
    const node = process.execPath;
    const [stdcpp, libc, both] = await Promise.all([linkedLibraries(node, 'libstdc++', undefined), linkedLibraries(node, 'libc.', undefined), linkedLibraries(node, ['libstdc++', 'libc.'], undefined)]);
    expect(both).toEqual([...new Set([...stdcpp, ...libc])].sort());
    expect(await linkedLibraries(node, [], undefined)).toEqual([]);
  });
});
