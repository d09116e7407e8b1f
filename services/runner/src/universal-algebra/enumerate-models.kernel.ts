/**
 * The isolated part of `universal_algebra.enumerate.models`: the search of model-enumeration.ts,
 * then a recheck of every model it lists by the shared evaluator (exhaustive over every
 * assignment of every law), which shares no code with the search's propagation. Inputs crossed
 * a process boundary as JSON, so they are parsed again here with the same parser. The loops are
 * synchronous: they poll the deadline themselves.
 */
import { evaluateLaws, JacobianError, parseLaws, resolveSignature, type FiniteAlgebra, type KernelContext } from '@jacobian/shared';
import { cellLayout, enumerateModels, type CellLayout, type EnumerationStop } from './model-enumeration.js';

/** Input of {@link enumerateModelsKernel}: the request's own signature and law texts. */
export interface EnumerateModelsKernelInput {
  signature: unknown;
  laws: string[];
  order: number;
  max_models: number;
}

/** One class: its canonical cells as digits (n ≤ 8, so one character per cell) and its automorphism count. */
export interface KernelModel {
  cells: string;
  automorphisms: number;
}

/** Output of {@link enumerateModelsKernel}. */
export interface EnumerateModelsKernelOutput {
  models: KernelModel[];
  stopped: EnumerationStop;
  decisions: number;
  leaves: number;
  labelled_count: number;
}

/** The algebra of flat cells, in the shared evaluator's form. */
export function algebraOfCells(layout: CellLayout, cells: readonly number[]): FiniteAlgebra {
  const n = layout.order;
  return {
    order: n,
    operations: new Map(layout.operations.map((operation) => [operation.name, { arity: operation.arity, values: cells.slice(operation.base, operation.base + n ** operation.arity) }])),
  };
}

/**
 * Enumerate, then recheck. The search stops early enough to leave the recheck a share of the
 * time (at least 100 ms, a tenth of what is left); the recheck itself throws EXECUTION_TIMEOUT if
 * it cannot finish, since unchecked models are not returned.
 */
export function enumerateModelsKernel(input: EnumerateModelsKernelInput, ctx: KernelContext): EnumerateModelsKernelOutput {
  const signature = resolveSignature(input.signature);
  const laws = parseLaws(input.laws, signature);
  const searchEnds = ctx.deadline - Math.max(100, Math.round((ctx.deadline - Date.now()) / 10));
  const result = enumerateModels({ signature, laws, order: input.order }, { maxModels: input.max_models, shouldStop: () => Date.now() >= searchEnds });
  const layout = cellLayout(signature, input.order);
  const checkpoint = (): void => {
    if (Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended while the models found were being rechecked; nothing was concluded");
  };
  for (const [index, model] of result.models.entries()) {
    const failing = evaluateLaws(algebraOfCells(layout, model.cells), laws, { checkpoint }).findIndex((evaluation) => !evaluation.holds);
    if (failing >= 0) throw new JacobianError('PROVIDER_FAILED', `the search listed a model (number ${index}) that violates law ${failing}; the result was discarded`);
  }
  return {
    models: result.models.map((model) => ({ cells: model.cells.map((value) => String.fromCharCode(48 + value)).join(''), automorphisms: model.automorphisms })),
    stopped: result.stopped,
    decisions: result.decisions,
    leaves: result.leaves,
    labelled_count: result.labelledCount,
  };
}
