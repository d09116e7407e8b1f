/**
 * Running a SAT solver for the sat capabilities: CaDiCaL (the probed executable, optionally
 * with a text DRAT proof) or our TypeScript CDCL in an isolated kernel. Whatever answers, a
 * model is rechecked here against every clause before anyone sees it.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { JacobianError, runKernel, toAppError, type CapabilityContext, type ProviderRuntime } from '@jacobian/shared';
import { CADICAL_PROVIDER, executableDigest, findCadical, runCadical, type CadicalLocation } from '../providers/cadical.js';
import { firstFalsifiedClause } from './cdcl.js';
import { serializeDimacs, type Cnf } from './sat-domain.js';

/** The provider name of our TypeScript solver. */
export const SAT_TS_PROVIDER = 'jacobian-sat-ts';
/** The files of our TypeScript SAT code (absolute paths): the jacobian-sat-ts provider digest covers them, with the shared SAT sources. */
export const SAT_TS_SOURCES: string[] = ['./cdcl.ts', './sat.kernel.ts', './solve.ts', './cnf-operand.ts', './model-find.ts', './cnf-materialize.ts', './sat-domain.ts'].map((file) =>
  fileURLToPath(new URL(file, import.meta.url)),
);

const SOLVE_KERNEL = { module: fileURLToPath(new URL('./sat.kernel.ts', import.meta.url)), exportName: 'solveCdclKernel' };

const Int = z.number().int();
const KernelOutput = z
  .object({
    status: z.enum(['SATISFIABLE', 'UNSATISFIABLE', 'UNKNOWN']),
    model: z.array(Int).nullable(),
    conflicts: Int,
    decisions: Int,
    propagations: Int,
    stopped_by_deadline: z.boolean(),
  })
  .strict();

/** What the solver said, in one shape for both solvers. */
export interface SolveOutcome {
  result: 'SATISFIABLE' | 'UNSATISFIABLE' | 'UNKNOWN';
  /** One literal per variable 1 … n, rechecked to satisfy every clause. */
  model: number[] | null;
  solveMs: number;
  exitCode: number | null;
  stoppedBy: 'DEADLINE' | 'PROOF_LIMIT' | null;
  /** With a proof requested: the text DRAT proof (null when it exceeded `maxProofBytes` in memory terms) and its size. */
  proof: { text: string | null; bytes: number } | null;
}

/** Time kept back from the solver for rechecking and storing. */
export function reserveMs(remaining: number): number {
  return Math.min(3000, Math.max(250, Math.round(remaining * 0.15)));
}

/** The model as one literal per variable, after checking that it satisfies every clause. */
function checkedModel(cnf: Cnf, values: Int8Array, who: string): number[] {
  const model = new Int8Array(cnf.variables + 1);
  for (let v = 1; v <= cnf.variables; v++) model[v] = (values[v] ?? 0) === 1 ? 1 : -1;
  const falsified = firstFalsifiedClause(cnf, model);
  if (falsified >= 0) throw new JacobianError('PROVIDER_FAILED', `${who} answered SATISFIABLE but its assignment falsifies clause ${falsified + 1}; the result was discarded`);
  return Array.from({ length: cnf.variables }, (_, i) => (model[i + 1] === 1 ? i + 1 : -(i + 1)));
}

/** Run cadical on a CNF, with or without a DRAT proof. */
export async function solveWithCadical(
  cnf: Cnf,
  context: CapabilityContext,
  runtime: ProviderRuntime,
  location: CadicalLocation,
  proof: { maxBytes: number; readLimit: number } | null,
): Promise<SolveOutcome> {
  const binary = await findCadical(location).catch((error: unknown) => {
    throw new JacobianError('PROVIDER_FAILED', `cadical is no longer where it was probed: ${toAppError(error).message}`);
  });
  if ((await executableDigest(binary)) !== runtime.digest) {
    throw new JacobianError('PROVIDER_FAILED', `the cadical executable at ${binary} is not the one probed (its sha256 changed); restart the runner to probe it again`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'jacobian-sat-'));
  try {
    const cnfPath = path.join(dir, 'problem.cnf');
    const proofPath = path.join(dir, 'proof.drat');
    await writeFile(cnfPath, serializeDimacs(cnf));
    const remaining = context.deadline - Date.now();
    const solved = await runCadical({
      binary,
      cnfPath,
      proofPath: proof === null ? null : proofPath,
      signal: context.signal,
      stopAt: context.deadline - reserveMs(remaining),
      maxStdoutBytes: 4096 + cnf.variables * 12,
      maxProofBytes: proof?.maxBytes ?? 0,
      memoryMb: context.budget.memory_mb,
    });
    const base = { solveMs: solved.runtimeMs, exitCode: solved.exitCode, stoppedBy: solved.stoppedBy };
    if (solved.result === 'SATISFIABLE') {
      if (solved.model === null) throw new JacobianError('PROVIDER_FAILED', 'cadical answered SATISFIABLE without a model');
      return { ...base, result: 'SATISFIABLE', model: checkedModel(cnf, solved.model, 'cadical'), proof: null };
    }
    if (solved.result === 'UNSATISFIABLE' && proof !== null) {
      const bytes = (await stat(proofPath)).size;
      return { ...base, result: 'UNSATISFIABLE', model: null, proof: { text: bytes <= proof.readLimit ? await readFile(proofPath, 'latin1') : null, bytes } };
    }
    return { ...base, result: solved.result, model: null, proof: null };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Run our TypeScript CDCL solver in an isolated kernel. */
export async function solveWithTypescript(cnf: Cnf, context: CapabilityContext): Promise<SolveOutcome & { conflicts: number }> {
  const started = Date.now();
  const out = KernelOutput.parse(await runKernel(context, SOLVE_KERNEL, { dimacs: serializeDimacs(cnf) }));
  const solveMs = Date.now() - started;
  const base = { solveMs, exitCode: null, stoppedBy: out.stopped_by_deadline ? ('DEADLINE' as const) : null, proof: null, conflicts: out.conflicts };
  if (out.status !== 'SATISFIABLE') return { ...base, result: out.status, model: null };
  if (out.model === null || out.model.length !== cnf.variables) throw new JacobianError('PROVIDER_FAILED', 'the TypeScript solver answered SATISFIABLE without a full model');
  const values = new Int8Array(cnf.variables + 1);
  for (const literal of out.model) values[Math.abs(literal)] = literal > 0 ? 1 : -1;
  return { ...base, result: 'SATISFIABLE', model: checkedModel(cnf, values, 'the TypeScript solver') };
}

/** Whether a runtime is the cadical provider's. */
export function isCadical(runtime: ProviderRuntime): boolean {
  return runtime.provider === CADICAL_PROVIDER && runtime.digest_kind === 'EXECUTABLE';
}
