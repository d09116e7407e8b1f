/**
 * The CPU-bound parts of the universal_algebra capabilities, run isolated in a pool child so
 * that a timeout or a cancel kills them: exhaustive law evaluation, and writing the CNF of a
 * countermodel search. Inputs crossed a process boundary as JSON, so they are parsed again
 * here with the same parser. The loops are synchronous: they poll the deadline themselves.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import {
  evaluateLaws,
  JacobianError,
  parseLaw,
  parseLaws,
  resolveSignature,
  validateAlgebra,
  type KernelContext,
  type LawEvaluation,
} from '@jacobian/shared';
import { encodeCountermodel, type EncodingSummary, type SymmetryBreaking } from './cnf-encoding.js';

function deadlineCheckpoint(ctx: KernelContext, what: string): () => void {
  return () => {
    if (Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', `the run's wall-time budget ended during ${what}; nothing was concluded`);
  };
}

/** Input of {@link evaluateLawsKernel}: the request's own signature, law texts and tables. */
export interface EvaluateLawsKernelInput {
  signature: unknown;
  laws: string[];
  algebra: unknown;
}

/** Check every law exhaustively in one algebra. */
export function evaluateLawsKernel(input: EvaluateLawsKernelInput, ctx: KernelContext): { results: LawEvaluation[] } {
  const signature = resolveSignature(input.signature);
  const laws = parseLaws(input.laws, signature);
  const algebra = validateAlgebra(signature, input.algebra);
  return { results: evaluateLaws(algebra, laws, { checkpoint: deadlineCheckpoint(ctx, 'the exhaustive evaluation') }) };
}

/** Input of {@link encodeCountermodelKernel}. */
export interface EncodeKernelInput {
  signature: unknown;
  laws: string[];
  target: string;
  order: number;
  symmetry_breaking: SymmetryBreaking;
  /** Where to write the DIMACS file (a fresh temporary folder of the run). */
  cnf_path: string;
}

/** Output of {@link encodeCountermodelKernel}. */
export interface EncodeKernelOutput extends EncodingSummary {
  bytes: number;
}

/** writeSync may write less than asked; loop until every byte is out. */
function writeAll(fd: number, buffer: Buffer): number {
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
  return buffer.length;
}

/** Flush written DIMACS text to the file in pieces of about this many characters. */
const CHUNK_CHARS = 1 << 20;

/**
 * Write the CNF of a countermodel search as DIMACS. The header needs the clause count, which
 * is known only at the end (tautologies are dropped), so the clauses are held as text chunks
 * until then; the request's clause bound keeps that within memory.
 */
export function encodeCountermodelKernel(input: EncodeKernelInput, ctx: KernelContext): EncodeKernelOutput {
  const signature = resolveSignature(input.signature);
  const problem = {
    signature,
    laws: parseLaws(input.laws, signature),
    target: parseLaw(input.target, signature),
    order: input.order,
    symmetryBreaking: input.symmetry_breaking,
  };
  const chunks: string[] = [];
  let current = '';
  const summary = encodeCountermodel(
    problem,
    (clause) => {
      current += clause.length === 0 ? '0\n' : `${clause.join(' ')} 0\n`;
      if (current.length >= CHUNK_CHARS) {
        chunks.push(current);
        current = '';
      }
    },
    deadlineCheckpoint(ctx, 'the CNF encoding'),
  );
  chunks.push(current);
  const header = `p cnf ${summary.variables} ${summary.clauses}\n`;
  const fd = openSync(input.cnf_path, 'wx');
  let bytes = 0;
  try {
    for (const text of [header, ...chunks]) bytes += writeAll(fd, Buffer.from(text, 'utf8'));
  } finally {
    closeSync(fd);
  }
  return { ...summary, bytes };
}
