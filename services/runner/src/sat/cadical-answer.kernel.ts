/**
 * Reading a large cadical answer, run isolated in a pool child so that the work proportional to
 * the model (parsing the `v` lines, rechecking the model against every clause, making the
 * canonical bytes of the stored model) is not done on the thread that answers MCP requests. The
 * runner hands over files (the solver's stdout spool and the CNF it solved, both written by the
 * runner) and gets back a compact result: the status, the model only when it is small enough to
 * be inline, and the stored artifacts as prepared files the runner checks and stores.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareArtifact, toAppError, type ArtifactStoreLimits, type PreparedArtifact } from '@jacobian/shared';
import { interpretCadicalAnswer } from '../providers/cadical.js';
import { cnfDraft } from './cnf-operand.js';
import { checkedModel } from './model-check.js';
import { modelDraft } from './model-draft.js';
import { parseDimacs } from './sat-domain.js';

/** Input of {@link readCadicalAnswerKernel}. */
export interface CadicalAnswerKernelInput {
  /** cadical's stdout. */
  answerFile: string;
  exitCode: number | null;
  exitSignal: string | null;
  stderr: string;
  /** The DIMACS text the solver was given (the runner's normal form of the request's CNF). */
  cnfFile: string;
  /** The stored CNF the request named; null for inline text (then the CNF is prepared here too). */
  cnfUri: string | null;
  /** The store's limits: a model (or CNF) over them is not stored (`refused`). */
  limits: ArtifactStoreLimits;
  /** Largest model returned inline. */
  maxInlineVariables: number;
  /** A folder of the runner's where prepared artifacts are written. */
  outDir: string;
}

/** A prepared artifact as files: the runner reads and checks them (adoptPreparedArtifact). */
export interface PreparedFiles {
  uri: string;
  manifestFile: string;
  payloadFile: string;
}

/** Output of {@link readCadicalAnswerKernel}. */
export interface CadicalAnswerKernelOutput {
  result: 'SATISFIABLE' | 'UNSATISFIABLE' | 'UNKNOWN';
  variables: number;
  /** SATISFIABLE, at most maxInlineVariables variables: the rechecked model. */
  model: number[] | null;
  /** SATISFIABLE: the stored CNF (null when the request named one) and model, or why they were not stored. */
  stored: { cnf: PreparedFiles | null; model: PreparedFiles } | { refused: string } | null;
}

function writePrepared(prepared: PreparedArtifact, outDir: string, name: string): PreparedFiles {
  const manifestFile = path.join(outDir, `${name}.manifest.json`);
  const payloadFile = path.join(outDir, `${name}.payload.json`);
  writeFileSync(manifestFile, prepared.manifestBytes);
  writeFileSync(payloadFile, prepared.payloadBytes);
  return { uri: prepared.uri, manifestFile, payloadFile };
}

export function readCadicalAnswerKernel(input: CadicalAnswerKernelInput): CadicalAnswerKernelOutput {
  const answer = interpretCadicalAnswer(readFileSync(input.answerFile, 'utf8'), input.exitCode, input.exitSignal, input.stderr);
  const cnf = parseDimacs(readFileSync(input.cnfFile, 'utf8'), ['payload', 'dimacs']);
  if (answer.result !== 'SATISFIABLE') return { result: answer.result, variables: cnf.variables, model: null, stored: null };
  const model = checkedModel(cnf, answer.model as Int8Array, 'cadical');
  const inline = cnf.variables <= input.maxInlineVariables ? model : null;
  try {
    const cnfPrepared = input.cnfUri === null ? prepareArtifact(cnfDraft(cnf), input.limits) : null;
    const cnfUri = cnfPrepared?.uri ?? (input.cnfUri as string);
    const modelPrepared = prepareArtifact(modelDraft(cnf.variables, model, cnfUri), input.limits);
    return {
      result: 'SATISFIABLE',
      variables: cnf.variables,
      model: inline,
      stored: { cnf: cnfPrepared === null ? null : writePrepared(cnfPrepared, input.outDir, 'cnf'), model: writePrepared(modelPrepared, input.outDir, 'model') },
    };
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code !== 'SIZE_LIMIT_EXCEEDED') throw appError;
    return { result: 'SATISFIABLE', variables: cnf.variables, model: inline, stored: { refused: appError.message } };
  }
}
