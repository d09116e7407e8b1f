import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cyclicSystem, JacobianError, parsePolynomials, printPolynomial, resolveRing } from '@jacobian/shared';
import { findSingular } from '@jacobian/shared/testing';
import { probeSingular, runSingularGroebner, singularProvider, singularScript, SINGULAR_PROVIDER } from './singular.js';

const found = findSingular();

/** A fake `Singular` in a temporary folder: a shell script with the given body. */
async function fakeSingular(dir: string, body: string): Promise<string> {
  const file = path.join(dir, 'Singular');
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('Singular script generation', () => {
  it('renames the variables and prints only our canonical text, so client names never reach Singular', () => {
    const ring = resolveRing({ field: { kind: 'Q' }, variables: ['quit', 'system', 'LIB'], order: 'grlex' });
    const generators = parsePolynomials(ring, ['quit^2 - 1/2*system', 'LIB*(quit + 3)']);
    const { script, renamed } = singularScript({ ring, generators, cofactors: true });
    expect(renamed.variables).toEqual(['v1', 'v2', 'v3']);
    expect(script).not.toMatch(/quit\^|system|LIB/);
    expect(script).toContain('ring r = 0, (v1,v2,v3), Dp;');
    expect(script).toContain(`ideal i = ${printPolynomial(renamed, generators[0] ?? [])},`);
    expect(script).toContain('matrix T = lift(i, g);');
  });

  it('refuses primes above 2^31 - 1 with an error naming the field', () => {
    const ring = resolveRing({ field: { kind: 'GF', characteristic: '2147483659' }, variables: ['x'], order: 'lex' });
    try {
      singularScript({ ring, generators: parsePolynomials(ring, ['x']), cofactors: false });
      expect.unreachable('a prime above 2^31 - 1 must be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(JacobianError);
      expect((error as JacobianError).path).toEqual(['payload', 'ring', 'field', 'characteristic']);
    }
    const largest = resolveRing({ field: { kind: 'GF', characteristic: '2147483647' }, variables: ['x'], order: 'lex' });
    expect(singularScript({ ring: largest, generators: parsePolynomials(largest, ['x']), cofactors: false }).script).toContain('ring r = 2147483647,');
  });
});

describe('the Singular provider probe', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'jacobian-singular-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is unavailable when no executable is found', async () => {
    await expect(probeSingular({ searchDirectories: [dir] })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(probeSingular({ binary: 'relative/Singular' })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });

  it('is unavailable when the executable is not Singular', async () => {
    const binary = await fakeSingular(dir, 'echo "cadical 1.9.5"');
    await expect(probeSingular({ binary })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(probeSingular({ binary })).rejects.toThrow(/not a Singular version line/);
  });

  it('is unavailable when its answers are wrong, and a wrong or garbled answer in a run is PROVIDER_FAILED', async () => {
    // Says it is Singular, then answers every problem with the basis [x].
    const binary = await fakeSingular(
      dir,
      'if [ "$1" = "--version" ]; then echo "Singular for x86_64-Linux version 4.3.1 (4313, 64 bit)"; exit 0; fi\ncat > /dev/null\necho "@@jacobian:options"\necho "//options: redSB redTail"\necho "@@jacobian:basis"\necho "v1"\necho "@@jacobian:cofactors"\necho "1"\necho "0"\necho "@@jacobian:end"',
    );
    await expect(probeSingular({ binary })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(probeSingular({ binary })).rejects.toThrow(/came out as \[x\]/);
    const ring = resolveRing({ field: { kind: 'Q' }, variables: ['x'], order: 'lex' });
    const garbled = await fakeSingular(dir, 'cat > /dev/null\necho "   ? error occurred in or before STDIN line 3"\necho "@@jacobian:basis"\necho "@@jacobian:end"');
    const garbledRun = runSingularGroebner(garbled, { ring, generators: parsePolynomials(ring, ['x']), cofactors: false }, { deadline: Date.now() + 10_000, maxOutputBytes: 4096 });
    await expect(garbledRun).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
    await expect(garbledRun).rejects.toThrow(/error occurred/);
    const unparsable = await fakeSingular(dir, 'cat > /dev/null\necho "@@jacobian:options"\necho "//options: redSB redTail"\necho "@@jacobian:basis"\necho "v1 +* 2"\necho "@@jacobian:end"');
    await expect(runSingularGroebner(unparsable, { ring, generators: parsePolynomials(ring, ['x']), cofactors: false }, { deadline: Date.now() + 10_000, maxOutputBytes: 4096 })).rejects.toMatchObject({
      code: 'PROVIDER_FAILED',
    });
  });

  it('refuses a run whose std would not have redSB and redTail in force (PROVIDER_FAILED naming the missing option)', async () => {
    const ring = resolveRing({ field: { kind: 'Q' }, variables: ['x'], order: 'lex' });
    // What the script printed when the options were set before `ring r` (Singular resets them on ring creation).
    const reset = await fakeSingular(dir, 'cat > /dev/null\necho "@@jacobian:options"\necho "//options: redSB redThrough intStrategy"\necho "@@jacobian:basis"\necho "v1"\necho "@@jacobian:end"');
    const run = runSingularGroebner(reset, { ring, generators: parsePolynomials(ring, ['x']), cofactors: false }, { deadline: Date.now() + 10_000, maxOutputBytes: 4096 });
    await expect(run).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
    await expect(run).rejects.toThrow(/redTail were not in force/);
    const silent = await fakeSingular(dir, 'cat > /dev/null\necho "@@jacobian:basis"\necho "v1"\necho "@@jacobian:end"');
    await expect(runSingularGroebner(silent, { ring, generators: parsePolynomials(ring, ['x']), cofactors: false }, { deadline: Date.now() + 10_000, maxOutputBytes: 4096 })).rejects.toThrow(/not in the expected form/);
  });

  it.skipIf(found.path === null)('runs std with redSB and redTail in force, as Singular itself reports them during the run', async () => {
    const { script } = singularScript({ ring: resolveRing({ field: { kind: 'Q' }, variables: ['x', 'y'], order: 'lex' }), generators: [], cofactors: false });
    // Set after the ring: Singular resets ring options when a ring is made.
    expect(script.indexOf('option(redTail);')).toBeGreaterThan(script.indexOf('ring r ='));
    for (const order of ['lex', 'grlex', 'grevlex'] as const) {
      for (const field of [{ kind: 'Q' }, { kind: 'GF', characteristic: '32003' }] as const) {
        const ring = resolveRing({ field, variables: ['x', 'y', 'z'], order });
        const result = await runSingularGroebner(found.path as string, { ring, generators: parsePolynomials(ring, ['x^2 + y*z - 1', 'x*y - z^2', 'x + y + z']), cofactors: order === 'lex' }, { deadline: Date.now() + 30_000, maxOutputBytes: 1 << 20 });
        expect(result.options).toEqual(expect.arrayContaining(['redSB', 'redTail']));
      }
    }
  });

  it.skipIf(found.path === null)('describes the installed Singular: release, COMPOSITE digest over the executable and libsingular, health checked', async () => {
    const probe = singularProvider();
    const runtime = await probe.probe();
    expect(runtime).toMatchObject({ provider: SINGULAR_PROVIDER, digest_kind: 'COMPOSITE', install_tier: 'T1' });
    expect(runtime.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(probe.tools?.components[0]).toMatchObject({ role: 'executable', file: 'Singular' });
    expect(probe.tools?.digest).toBe(runtime.digest);
    // The same installation probed twice has the same identity.
    expect((await probeSingular()).runtime.digest).toBe(runtime.digest);
  });

  it.skipIf(found.path === null)('stops a run at the deadline (EXECUTION_TIMEOUT) and on cancel (EXECUTION_CANCELLED)', async () => {
    const cyclic8 = cyclicSystem(8);
    const ring = resolveRing({ field: { kind: 'Q' }, variables: cyclic8.variables, order: 'grevlex' });
    const request = { ring, generators: parsePolynomials(ring, cyclic8.generators), cofactors: false };
    const binary = found.path as string;
    await expect(runSingularGroebner(binary, request, { deadline: Date.now() + 200, maxOutputBytes: 1 << 20 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200).unref();
    await expect(runSingularGroebner(binary, request, { signal: controller.signal, deadline: Date.now() + 60_000, maxOutputBytes: 1 << 20 })).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
  });
});
