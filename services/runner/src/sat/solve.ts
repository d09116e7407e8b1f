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
import { adoptPreparedArtifact, JacobianError, runKernel, toAppError, type ArtifactDraft, type CapabilityContext, type ProviderRuntime } from '@jacobian/shared';
import { CADICAL_PROVIDER, executableDigest, findCadical, runCadical, type CadicalLocation } from '../providers/cadical.js';
import type { CadicalAnswerKernelInput, PreparedFiles } from './cadical-answer.kernel.js';
import { checkedModel } from './model-check.js';
import { serializeDimacs, type Cnf } from './sat-domain.js';

/** The provider name of our TypeScript solver. */
export const SAT_TS_PROVIDER = 'jacobian-sat-ts';
/** The files of our TypeScript SAT code (absolute paths): the jacobian-sat-ts provider digest covers them, with the shared SAT sources. */
export const SAT_TS_SOURCES: string[] = ['./cdcl.ts', './sat.kernel.ts', './solve.ts', './cnf-operand.ts', './model-find.ts', './cnf-materialize.ts', './sat-domain.ts', './model-check.ts', './model-draft.ts'].map((file) =>
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
  /**
   * When the answer was read in the isolated kernel (see {@link ModelOffload}): what it found
   * and prepared; `model` then holds the model only if it is small enough to be inline.
   */
  offloaded?: OffloadedModel;
}

/** What the answer kernel found and prepared, checked and ready to put. */
export interface OffloadedModel {
  stored: { cnf: { uri: string; draft: ArtifactDraft } | null; model: { uri: string; draft: ArtifactDraft } } | { refused: string } | null;
}

/**
 * Read a large SATISFIABLE answer in an isolated kernel instead of on this thread: parsing the
 * model, rechecking it against every clause and making the stored artifacts' bytes there.
 */
export interface ModelOffload {
  /** Answers of more bytes of stdout than this are read in the kernel. */
  minBytes: number;
  /** The stored CNF the request named; null for inline text. */
  cnfUri: string | null;
  maxInlineVariables: number;
}

/** Default {@link ModelOffload.minBytes}: about 8,000 variables' model (smaller ones are cheaper read here than a kernel's round trip). */
export const MODEL_OFFLOAD_MIN_BYTES = 64 * 1024;

/**
 * The least `budget.memory_mb` under which an answer is read in a kernel. A kernel is a Node
 * process that holds tens of MiB before it reads anything, and it runs under the run's memory
 * budget: under a smaller budget the answer is read on this thread, as it fits there, rather than
 * refused for the kernel's own memory.
 */
export const MODEL_OFFLOAD_MIN_MEMORY_MB = 256;

const ANSWER_KERNEL = { module: fileURLToPath(new URL('./cadical-answer.kernel.ts', import.meta.url)), exportName: 'readCadicalAnswerKernel' };

const PreparedFilesSchema = z.object({ uri: z.string(), manifestFile: z.string(), payloadFile: z.string() }).strict();
const AnswerKernelOutput = z
  .object({
    result: z.enum(['SATISFIABLE', 'UNSATISFIABLE', 'UNKNOWN']),
    variables: Int,
    model: z.array(Int).nullable(),
    stored: z.union([z.object({ cnf: PreparedFilesSchema.nullable(), model: PreparedFilesSchema }).strict(), z.object({ refused: z.string() }).strict()]).nullable(),
  })
  .strict();

/** Time kept back from the solver for rechecking and storing. */
export function reserveMs(remaining: number): number {
  return Math.min(3000, Math.max(250, Math.round(remaining * 0.15)));
}

/** Run cadical on a CNF, with or without a DRAT proof. */
export async function solveWithCadical(
  cnf: Cnf,
  context: CapabilityContext,
  runtime: ProviderRuntime,
  location: CadicalLocation,
  proof: { maxBytes: number; readLimit: number } | null,
  offload: ModelOffload | null = null,
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
      ...(offload === null
        ? {}
        : {
            offload: {
              minBytes: offload.minBytes,
              read: async (answer) => {
                const input: CadicalAnswerKernelInput = {
                  answerFile: answer.file,
                  exitCode: answer.exitCode,
                  exitSignal: answer.signal,
                  stderr: answer.stderr.slice(0, 500),
                  cnfFile: cnfPath,
                  cnfUri: offload.cnfUri,
                  limits: context.artifacts.limits,
                  maxInlineVariables: offload.maxInlineVariables,
                  outDir: dir,
                };
                // What is read there is the answer: only the solver's own run is budgeted by stopAt, so the kernel gets the rest.
                const output = AnswerKernelOutput.parse(await runKernel(context, ANSWER_KERNEL, input));
                if (output.variables !== cnf.variables) throw new JacobianError('INTERNAL', `the answer kernel read a CNF of ${output.variables} variables, not ${cnf.variables}`);
                const adopt = async (files: PreparedFiles): Promise<{ uri: string; draft: ArtifactDraft }> => ({
                  uri: files.uri,
                  draft: await adoptPreparedArtifact(files.uri, await readFile(files.manifestFile), await readFile(files.payloadFile), context.artifacts.limits),
                });
                const stored: OffloadedModel['stored'] =
                  output.stored === null || 'refused' in output.stored ? output.stored : { cnf: output.stored.cnf === null ? null : await adopt(output.stored.cnf), model: await adopt(output.stored.model) };
                return { result: output.result, model: output.model, offloaded: { stored } };
              },
            },
          }),
    });
    const base = { solveMs: solved.runtimeMs, exitCode: solved.exitCode, stoppedBy: solved.stoppedBy };
    if (solved.offloaded !== undefined) {
      const read = solved.offloaded as { result: SolveOutcome['result']; model: number[] | null; offloaded: OffloadedModel };
      return { ...base, result: read.result, model: read.model, proof: null, offloaded: read.offloaded };
    }
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
