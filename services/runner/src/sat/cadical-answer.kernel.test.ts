import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adoptPreparedArtifact, DEFAULT_ARTIFACT_STORE_LIMITS, SatModelPayloadSchema } from '@jacobian/shared';
import { readCadicalAnswerKernel, type CadicalAnswerKernelInput } from './cadical-answer.kernel.js';

/** What `run` throws (it must throw). */
function thrown(run: () => unknown): Error & { code?: string } {
  try {
    run();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

const CNF = 'p cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n';

describe('the cadical answer kernel', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jacobian-answer-kernel-'));
    await writeFile(join(dir, 'problem.cnf'), CNF);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function input(answer: string, exitCode: number, more: Partial<CadicalAnswerKernelInput> = {}): Promise<CadicalAnswerKernelInput> {
    await writeFile(join(dir, 'answer.txt'), answer);
    return { answerFile: join(dir, 'answer.txt'), exitCode, exitSignal: null, stderr: '', cnfFile: join(dir, 'problem.cnf'), cnfUri: null, limits: DEFAULT_ARTIFACT_STORE_LIMITS, maxInlineVariables: 100, outDir: dir, ...more };
  }

  it('rechecks the model against every clause and prepares the CNF and the model as the runner stores them', async () => {
    const output = readCadicalAnswerKernel(await input('s SATISFIABLE\nv 1 2 -3 0\n', 10));
    expect(output).toMatchObject({ result: 'SATISFIABLE', variables: 3, model: [1, 2, -3] });
    const stored = output.stored as { cnf: { uri: string; manifestFile: string; payloadFile: string }; model: { uri: string; manifestFile: string; payloadFile: string } };
    const draft = await adoptPreparedArtifact(stored.model.uri, await readFile(stored.model.manifestFile), await readFile(stored.model.payloadFile), DEFAULT_ARTIFACT_STORE_LIMITS);
    expect(draft.parents).toEqual([stored.cnf.uri]);
    expect(SatModelPayloadSchema.parse(draft.payload).assignment).toEqual([1, 2, -3]);
  });

  it('refuses a model that falsifies a clause (PROVIDER_FAILED), whatever the solver said', async () => {
    const bad = await input('s SATISFIABLE\nv 1 -2 3 0\n', 10);
    expect(thrown(() => readCadicalAnswerKernel(bad))).toMatchObject({ code: 'PROVIDER_FAILED' });
    expect(thrown(() => readCadicalAnswerKernel(bad)).message).toContain('falsifies clause 3');
  });

  it('refuses an answer whose status line and exit code disagree (PROVIDER_FAILED)', async () => {
    const bad = await input('s SATISFIABLE\nv 1 2 -3 0\n', 20);
    expect(thrown(() => readCadicalAnswerKernel(bad))).toMatchObject({ code: 'PROVIDER_FAILED' });
    expect(thrown(() => readCadicalAnswerKernel(bad)).message).toContain('exit code 20');
  });

  it('keeps a model over maxInlineVariables out of its output and names the store’s refusal of a model too large', async () => {
    const output = readCadicalAnswerKernel(await input('s SATISFIABLE\nv 1 2 -3 0\n', 10, { maxInlineVariables: 2, limits: { ...DEFAULT_ARTIFACT_STORE_LIMITS, maxPayloadBytes: 30 } }));
    expect(output).toMatchObject({ result: 'SATISFIABLE', model: null });
    expect(output.stored !== null && 'refused' in output.stored ? output.stored.refused : '').toContain('maxPayloadBytes');
  });
});
