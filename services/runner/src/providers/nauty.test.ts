import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGraph6, ProviderRuntimeSchema, type IndexedGraph, type ProviderProbe, type ProviderRuntime } from '@jacobian/shared';
import { FAKE_RUNTIME } from '../testing/fixtures.js';
import { requireNauty } from '../graph/nauty-test-support.js';
import { completeGraph, cycle, factorial, hypercube, mulberry32, PETERSEN, randomGraph, randomPermutation, relabel } from '../graph/test-graphs.js';
import {
  dreadnautScript,
  firstHealthyOf,
  nautyAutomorphismGroup,
  nautyCanonicalForm,
  nautyCanonicalFormMethod,
  nautyProvider,
  parseDreadnautOutput,
  probeNautyProvider,
  runNativeTool,
  type NautyTools,
} from './nauty.js';

const soon = (ms = 10_000): { deadline: number } => ({ deadline: Date.now() + ms });

function run(tool: string, args: string[], input: string): string {
  return execFileSync(tool, args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

describe('runNativeTool', () => {
  it('returns stdout and stderr of a successful run, input given on stdin', async () => {
    const out = await runNativeTool('/bin/cat', [], 'hello\n', { ...soon(), maxOutputBytes: 1024 });
    expect(out).toEqual({ stdout: 'hello\n', stderr: '' });
  });

  it('leaves no input or output file in the temporary folder, whatever the outcome', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'jacobian-native-'));
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = folder;
    try {
      expect((await runNativeTool('/bin/cat', [], 'x'.repeat(100_000), { ...soon(), maxOutputBytes: 1024 * 1024 })).stdout).toHaveLength(100_000);
      await expect(runNativeTool('/bin/ls', ['/definitely/not/here'], 'input', { ...soon(), maxOutputBytes: 1024 })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
      await expect(runNativeTool('/bin/sleep', ['30'], 'input', { deadline: Date.now() + 200, maxOutputBytes: 1024 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
      await expect(runNativeTool('/definitely/not/here', [], 'input', { ...soon(), maxOutputBytes: 1024 })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
      expect(await readdir(folder)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('kills the child at the deadline (EXECUTION_TIMEOUT), not when it would have finished', async () => {
    const started = Date.now();
    await expect(runNativeTool('/bin/sleep', ['30'], '', { deadline: Date.now() + 200, maxOutputBytes: 1024 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
    // The promise settles on the child's exit, so the child is gone by now.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('kills the child on abort (EXECUTION_CANCELLED), and refuses to start when already aborted', async () => {
    const controller = new AbortController();
    const pending = runNativeTool('/bin/sleep', ['30'], '', { signal: controller.signal, ...soon(), maxOutputBytes: 1024 });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    await expect(runNativeTool('/bin/cat', [], '', { signal: controller.signal, ...soon(), maxOutputBytes: 1024 })).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
  });

  it('kills a child that writes more than the output limit (OUTPUT_LIMIT_EXCEEDED)', async () => {
    await expect(runNativeTool('/usr/bin/yes', [], '', { ...soon(), maxOutputBytes: 64 * 1024 })).rejects.toMatchObject({ code: 'OUTPUT_LIMIT_EXCEEDED' });
  });

  it('reports a non-zero exit with its stderr, and a missing executable, as PROVIDER_FAILED', async () => {
    await expect(runNativeTool('/bin/ls', ['/definitely/not/here'], '', { ...soon(), maxOutputBytes: 1024 })).rejects.toMatchObject({
      code: 'PROVIDER_FAILED',
      message: expect.stringMatching(/ls exited with status \d+: .*definitely\/not\/here/) as unknown,
    });
    await expect(runNativeTool('/definitely/not/here', [], '', { ...soon(), maxOutputBytes: 1024 })).rejects.toMatchObject({
      code: 'PROVIDER_FAILED',
      message: expect.stringContaining('could not be started') as unknown,
    });
  });

  it('uses no shell: arguments are passed as they are', async () => {
    const out = await runNativeTool('/bin/echo', ['$HOME; echo injected'], '', { ...soon(), maxOutputBytes: 1024 });
    expect(out.stdout).toBe('$HOME; echo injected\n');
  });
});

describe('parseDreadnautOutput', () => {
  // dreadnaut 2.8.6 on 2K_3 (two disjoint triangles), with generators: verbatim.
  const twoTriangles = [
    '@@jacobian:search',
    ' 0 1 2 3 5 4',
    'level 4:  5 orbits; 4 fixed; index 2',
    ' 0 1 2 4 3 5',
    'level 3:  4 orbits; 3 fixed; index 3',
    ' 0 2 1 3 4 5',
    'level 2:  3 orbits; 1 fixed; index 2',
    ' 1 0 2 3 4 5',
    ' 3 4 5 0 1 2',
    'level 1:  1 orbit; 0 fixed; index 6',
    '1 orbit; grpsize=72; 5 gens; 19 nodes; maxlev=5',
    'canupdates=1; cpu time = 0.00 seconds',
    '@@jacobian:canonical',
    ' 0 1 2 3 4 5',
    '  0 :  1 2;',
    '  1 :  0 2;',
    '  2 :  0 1;',
    '  3 :  4 5;',
    '  4 :  3 5;',
    '  5 :  3 4;',
    '@@jacobian:orbits',
    ' 0:5 (6);',
    '@@jacobian:end',
    '',
  ];

  it('reads the order exactly from the stabilizer chain, the generators, the labelling and the orbits', () => {
    const answer = parseDreadnautOutput(twoTriangles.join('\n'), 6, { generators: true });
    expect(answer.groupOrder).toBe(72n);
    expect(answer.generators).toHaveLength(5);
    expect(answer.generators[4]).toEqual([3, 4, 5, 0, 1, 2]);
    expect(answer.lab).toEqual([0, 1, 2, 3, 4, 5]);
    expect(answer.orbits).toEqual([[0, 1, 2, 3, 4, 5]]);
  });

  it('reads level lines with cells and a/b indices, orbit ranges and singletons', () => {
    const text = [
      '@@jacobian:search',
      'level 1:  2 cells; 3 orbits; 0 fixed; index 3/7',
      '4 orbits; grpsize=3; 1 gen; 5 nodes (2 bad leaves); maxlev=2',
      'canupdates=1; cpu time = 0.00 seconds',
      '@@jacobian:canonical',
      ' 6 0 1 2 3 4 5',
      ...Array.from({ length: 7 }, (_, i) => `  ${i} : ;`),
      '@@jacobian:orbits',
      ' 0:2 (3); 3 5 (2); 4; 6;',
      '@@jacobian:end',
    ].join('\n');
    const answer = parseDreadnautOutput(text, 7, { generators: false });
    expect(answer.groupOrder).toBe(3n);
    expect(answer.orbits).toEqual([[0, 1, 2], [3, 5], [4], [6]]);
  });

  it('rejects output it does not recognize or whose counts disagree', () => {
    const variants: [string, string[]][] = [
      ['an unknown line', twoTriangles.map((line) => (line.startsWith('canupdates') ? 'something else' : line))],
      ['grpsize disagreeing with the indices', twoTriangles.map((line) => line.replace('grpsize=72', 'grpsize=144'))],
      ['a generator count that disagrees', twoTriangles.map((line) => line.replace('5 gens', '6 gens'))],
      ['a missing marker', twoTriangles.filter((line) => line !== '@@jacobian:orbits')],
      ['a labelling that is not a permutation', twoTriangles.map((line) => (line === ' 0 1 2 3 4 5' ? ' 0 1 2 3 4 4' : line))],
      ['an orbit count that disagrees', twoTriangles.map((line) => line.replace(' 0:5 (6);', ' 0:4 (5); 5;'))],
      ['an orbit size that disagrees', twoTriangles.map((line) => line.replace('(6)', '(5)'))],
      ['stderr-like noise before the first marker', ['illegal edge (0,3) ignored', ...twoTriangles]],
    ];
    for (const [what, lines] of variants) {
      expect(() => parseDreadnautOutput(lines.join('\n'), 6, { generators: true }), what).toThrow(expect.objectContaining({ code: 'PROVIDER_FAILED' }));
    }
  });
});

describe('nauty provider probe', () => {
  let tools: NautyTools;
  let runtime: ProviderRuntime;
  beforeAll(async () => {
    ({ tools, runtime } = await requireNauty());
  });

  it('identifies nauty: release, word size, COMPOSITE digest over executables and libnauty, license', async () => {
    expect(ProviderRuntimeSchema.safeParse(runtime).success).toBe(true);
    expect(runtime).toMatchObject({ provider: 'nauty', digest_kind: 'COMPOSITE', install_tier: 'T1', license_id: 'Apache-2.0' });
    expect(runtime.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(runtime.features).toEqual(expect.arrayContaining(['canonical-labelling', 'automorphism-group', `wordsize-${tools.wordSize}`, 'libnauty-digested']));
    expect(tools.labelg).toMatch(/labelg$/);
    expect(nautyCanonicalFormMethod(tools)).toBe(`nauty-labelg ${runtime.version} (${tools.wordSize} bits)`);
    // The same bytes, the same identity.
    expect((await probeNautyProvider()).runtime.digest).toBe(runtime.digest);
  });

  it('reports a missing executable as PROVIDER_UNAVAILABLE with the way to install nauty', async () => {
    await expect(probeNautyProvider({ labelg: '/nonexistent/nauty-labelg' })).rejects.toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      message: expect.stringContaining('scripts/install-system-deps.sh') as unknown,
    });
    await expect(probeNautyProvider({ directories: ['/nonexistent'] })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });

  describe('with impostors', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'jacobian-nauty-'));
      // Claims to be nauty but prints a fixed graph whatever it is given.
      const liar = join(dir, 'nauty-labelg');
      await writeFile(liar, `#!/bin/sh\nif [ "$1" = --version ]; then /usr/bin/nauty-labelg --version; exit 0; fi\ncat >/dev/null\necho 'IheA@GUAo'\n`);
      await chmod(liar, 0o755);
      const notNauty = join(dir, 'other-labelg');
      await writeFile(notNauty, '#!/bin/sh\necho hello\n');
      await chmod(notNauty, 0o755);
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('fails the health check of a labelg whose output dreadnaut cannot reproduce', async () => {
      await expect(probeNautyProvider({ labelg: join(dir, 'nauty-labelg') })).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringContaining("does not reproduce labelg's canonical graph") as unknown,
      });
    });

    it('refuses an executable that does not print a nauty version', async () => {
      await expect(probeNautyProvider({ labelg: join(dir, 'other-labelg') })).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringContaining('not a nauty version line') as unknown,
      });
    });
  });

  it('nautyProvider remembers the tools its probe vouched for', async () => {
    const probe = nautyProvider();
    expect(probe.tools).toBeUndefined();
    const probed = await probe.probe();
    expect(probed.digest).toBe(runtime.digest);
    expect(probe.tools).toEqual(tools);
  });
});

describe('nauty runs', () => {
  let tools: NautyTools;
  beforeAll(async () => {
    ({ tools } = await requireNauty());
  });

  it('gives relabelled copies one canonical form, and its labelling maps each copy onto it', async () => {
    for (const [i, graph] of [PETERSEN, hypercube(4), randomGraph(40, 0.3, mulberry32(7)), randomGraph(256, 0.05, mulberry32(8)), completeGraph(256)].entries()) {
      const copy = relabel(graph, randomPermutation(graph.order, mulberry32(100 + i)));
      const [a, b] = await Promise.all([nautyCanonicalForm(tools, graph, soon()), nautyCanonicalForm(tools, copy, soon())]);
      expect(a.graph6).toBe(b.graph6);
      expect(a.groupOrder).toBe(b.groupOrder);
      // Independent truth: labelg itself, run here directly.
      expect(run('/usr/bin/nauty-labelg', ['-q'], `${encodeGraph6(copy)}\n`).trim()).toBe(a.graph6);
    }
  });

  it('agrees with nauty-countg on group orders, including 256! for K_256', async () => {
    for (const graph of [PETERSEN, cycle(100), hypercube(8), randomGraph(30, 0.1, mulberry32(3)), completeGraph(256)]) {
      const group = await nautyAutomorphismGroup(tools, graph, soon());
      const countg = run('/usr/bin/nauty-countg', ['--a', '-q'], `${encodeGraph6(graph)}\n`);
      const printed = /groupsize=(\S+)/.exec(countg)?.[1] ?? '';
      if (/^\d+$/.test(printed)) expect(group.order.toString()).toBe(printed);
      else expect(Number(group.order.toString().slice(0, 6)) / 1e5).toBeCloseTo(Number(printed.split('e')[0]), 4);
      expect(group.generators.length).toBeLessThan(Math.max(1, graph.order));
    }
    expect((await nautyAutomorphismGroup(tools, completeGraph(256), soon())).order).toBe(factorial(256));
  });

  it('answers the graph with no vertices without running nauty', async () => {
    const none: IndexedGraph = { order: 0, edges: [] };
    expect(await nautyCanonicalForm(tools, none, soon())).toEqual({ graph6: '?', labelling: [], groupOrder: 1n });
    expect(await nautyAutomorphismGroup(tools, none, soon())).toEqual({ order: 1n, generators: [], orbits: [] });
  });

  it("writes dreadnaut input that dreadnaut reads silently, and dreadnaut's canonical graph is labelg's", () => {
    for (const [i, graph] of [randomGraph(12, 0.4, mulberry32(5)), randomGraph(70, 0.2, mulberry32(6)), cycle(9)].entries()) {
      const result = spawnSync('/usr/bin/dreadnaut', [], { input: dreadnautScript(graph, { generators: true }), encoding: 'utf8' });
      expect(result.stderr, `graph ${i}`).toBe('');
      const answer = parseDreadnautOutput(result.stdout, graph.order, { generators: true });
      // The rows `b` prints after the labelling: "  i :  a b c;".
      const edges: [number, number][] = [];
      for (const row of result.stdout.split('\n').filter((line) => /^ *\d+ :/.test(line))) {
        const [u, rest] = row.split(':') as [string, string];
        for (const v of rest.replace(';', '').trim().split(/ +/).filter((x) => x !== '')) if (Number(u) < Number(v)) edges.push([Number(u), Number(v)]);
      }
      expect(encodeGraph6({ order: graph.order, edges: edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]) })).toBe(run('/usr/bin/nauty-labelg', ['-q'], `${encodeGraph6(graph)}\n`).trim());
      expect(answer.lab.slice().sort((a, b) => a - b)).toEqual(Array.from({ length: graph.order }, (_, v) => v));
    }
  });

  it('a timeout kills nauty: a deadline already near ends the run with EXECUTION_TIMEOUT', async () => {
    await expect(nautyCanonicalForm(tools, randomGraph(200, 0.5, mulberry32(1)), { deadline: Date.now() - 1 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
  });
});

describe('firstHealthyOf', () => {
  const healthy = (name: string): ProviderProbe => ({ name, probe: () => Promise.resolve({ ...FAKE_RUNTIME, provider: name }) });
  const broken = (name: string): ProviderProbe => ({ name, probe: () => Promise.reject(new Error(`${name} is broken`)) });

  it('answers with the first healthy candidate, in order, and says whom it passed over', async () => {
    const skipped: string[] = [];
    const probe = firstHealthyOf([broken('a'), healthy('b'), healthy('c')], { onSkipped: (name, reason) => skipped.push(`${name}: ${reason}`) });
    expect(probe.name).toBe('first-healthy-of(a, b, c)');
    expect((await probe.probe()).provider).toBe('b');
    expect(skipped).toEqual(['a: a is broken']);
    expect((await firstHealthyOf([healthy('x'), broken('y')]).probe()).provider).toBe('x');
  });

  it('fails with every reason when none is healthy', async () => {
    await expect(firstHealthyOf([broken('a'), broken('b')]).probe()).rejects.toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      message: 'no healthy provider among a, b: a: a is broken; b: b is broken',
    });
  });

  it('falls back from a nauty that is not installed', async () => {
    const probe = firstHealthyOf([nautyProvider({ directories: ['/nonexistent'] }), healthy('jacobian-graph-symmetry-ts')]);
    expect((await probe.probe()).provider).toBe('jacobian-graph-symmetry-ts');
  });
});
