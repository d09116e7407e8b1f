import { z } from 'zod';
import type { ProgressListener } from '../contracts/progress.js';
import {
  CapabilityDescriptorSchema,
  type AssuranceLevel,
  type Budget,
  type CapabilityDescriptor,
  type CapabilityRelationship,
  type CheckerIdentity,
  type InputKind,
  type InvocationExample,
  type Mode,
  type ResolvedBudget,
  type Role,
} from '../contracts/capability.js';
import type { ProviderRuntime } from '../contracts/provider.js';
import type {
  ArtifactRelationship,
  Assurance,
  CapabilityResult,
  Completeness,
  Diagnostic,
  ExecutionStatus,
  Obligation,
  Qualifier,
  Scope,
} from '../contracts/result.js';
import type { ArtifactStore } from '../artifacts/store.js';
import type { IsolatedExecutor } from '../isolation/process-pool.js';
import { JacobianError } from '../errors.js';
import { zodIssuesToDiagnostics } from './diagnostics.js';

/** What a capability's code may use while it runs. */
export interface CapabilityContext {
  readonly mode: Mode;
  readonly budget: ResolvedBudget;
  readonly jobId: string;
  readonly requestDigest: string;
  /**
   * Where the run stores artifacts. The put of an artifact the outcome lists in `artifact_uris`
   * may defer its sync (PutOptions.deferSync): the host syncs those before it returns the run's
   * result, while it checks the outcome.
   */
  readonly artifacts: ArtifactStore;
  /** Runs CPU-bound kernels isolated so a timeout or cancel kills them. */
  readonly executor: IsolatedExecutor;
  readonly signal: AbortSignal;
  /** Epoch ms when the run's wall-time budget ends. */
  readonly deadline: number;
  /** Report how far the run has come (informational; see RunProgress). Never throws. */
  readonly progress: ProgressListener;
}

/** What a capability returns; the host adds identity, execution timing and provider. */
export interface CapabilityOutcome<O> {
  status: ExecutionStatus;
  output: O | null;
  scope: Scope | null;
  completeness: Completeness;
  qualifiers: Qualifier[];
  assurance: Assurance;
  obligations: Obligation[];
  relationships: ArtifactRelationship[];
  artifact_uris: string[];
  diagnostics: Diagnostic[];
}

/**
 * One child run a capability asks for when it splits a run: a full request of a capability
 * (normally its own, with a shard option in the payload). It runs in the parent's mode and is
 * admitted like any request; its budget defaults to the parent's and every field is capped at
 * the parent's (see planShards in shards.ts).
 */
export interface ShardRequest {
  capability_id: string;
  payload: Record<string, unknown>;
  budget?: Budget;
}

/** A child's result as its parent's merge sees it: `index` is its place in the plan. */
export interface ShardChild {
  index: number;
  job_id: string;
  result: CapabilityResult;
}

/** What a split plan may look at: the parent run's identity and budget, nothing to compute with. */
export interface ShardPlanContext {
  readonly mode: Mode;
  readonly budget: ResolvedBudget;
  readonly jobId: string;
  readonly requestDigest: string;
}

/**
 * A capability's way to split a large run into child runs that any runner may take, and to
 * merge their results (see CapabilityDefinition.shards).
 *
 * @example
 * shards: {
 *   plan: (input) => (input.split === undefined || input.part !== undefined ? null
 *     : { children: range(input.split).map((index) => ({ capability_id: 'x.sum', payload: { ...input, split: undefined, part: { index, count: input.split } } })) }),
 *   merge: async (input, children) => sumOf(children.map((child) => child.result.output)),
 * }
 */
export interface ShardHooks<I, O> {
  /**
   * Whether to split this run, and into what; null runs it whole with `run`. Called with the
   * parsed input of a run that is not itself a child (children are never split again). It must
   * be cheap and deterministic: it computes nothing and stores nothing.
   */
  plan(input: I, context: ShardPlanContext): { children: ShardRequest[] } | null;
  /**
   * Combine the children's results, in plan order, into the parent's outcome. Called only when
   * every child COMPLETED (otherwise the host answers for the parent, naming the children that
   * did not). The host holds the outcome to the capability's ceiling and output schema, to the
   * weakest child's assurance, to COMPLETE only when every child is COMPLETE, and adds every
   * child's artifact URIs and job ID to the parent's result.
   */
  merge(input: I, children: ShardChild[], context: CapabilityContext): Promise<CapabilityOutcome<O>>;
}

/** Declared by a checker capability: what it is and which code its identity digest covers. */
export interface CheckerDeclaration {
  checker_id: string;
  method: string;
  /** Absolute paths of the source files whose bytes, with `configuration`, form the identity. */
  source_files: string[];
  configuration: Record<string, string | number>;
}

/** The code-side definition of one capability. Everything here is written by us, never by a client. */
export interface CapabilityDefinition<I, O> {
  id: string;
  version: string;
  title: string;
  description: string;
  tags: string[];
  /** The field's words for this outcome (synonyms, laws, invariants, methods, tools), for search; see CapabilityDescriptor. */
  keywords?: string[];
  domain: string;
  modes: Mode[];
  role: Role;
  pool: string;
  input_kinds: InputKind[];
  accepted_artifact_types: string[];
  produced_artifact_types: string[];
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  examples: InvocationExample[];
  relationships: CapabilityRelationship[];
  assurance_ceiling: AssuranceLevel;
  scope_rule: string;
  limits: Record<string, number | string>;
  checker?: CheckerDeclaration;
  run(input: I, context: CapabilityContext): Promise<CapabilityOutcome<O>>;
  /** Optional: split a large run into child runs on any runners, and merge their results. */
  shards?: ShardHooks<I, O>;
}

/**
 * What admission needs of a capability: its descriptor and a schema to check payloads with.
 * In one process that schema is the capability's own zod input; an API that only sees
 * advertised descriptors rebuilds it from the descriptor's JSON Schema.
 */
export interface AdmissibleCapability {
  readonly descriptor: CapabilityDescriptor;
  readonly input: z.ZodType;
}

/**
 * Admission for a capability known only by its advertised descriptor. JSON Schema carries
 * the shape, types and bounds; cross-field rules (refinements) are checked again by the
 * runner, which parses every job with the capability's own schema before computing.
 */
export function admissibleFromDescriptor(descriptor: CapabilityDescriptor): AdmissibleCapability {
  return { descriptor, input: z.fromJSONSchema(descriptor.input_schema) };
}

/** A capability whose provider passed its probe and whose descriptor is valid. */
export interface InstalledCapability extends AdmissibleCapability {
  readonly descriptor: CapabilityDescriptor;
  // The definition's generic types are erased here: the host parses input with
  // `definition.input` before calling `run`, so the erasure is checked at runtime.
  readonly definition: CapabilityDefinition<unknown, unknown>;
}

/** Derive the JSON Schema agents see. Inputs use the input side of transforms and defaults. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
}

/**
 * Build and validate a descriptor. A bad descriptor or an invocation example that its own
 * input schema rejects stops registration with REGISTRATION_INVALID naming what is wrong.
 */
export function installCapability<I, O>(
  definition: CapabilityDefinition<I, O>,
  runtime: ProviderRuntime,
  checker: CheckerIdentity | null,
): InstalledCapability {
  for (const [index, example] of definition.examples.entries()) {
    const parsed = definition.input.safeParse(example.payload);
    if (!parsed.success) {
      const first = zodIssuesToDiagnostics(parsed.error, ['examples', index, 'payload'], 'REGISTRATION')[0];
      throw new JacobianError(
        'REGISTRATION_INVALID',
        `${definition.id}: invocation example ${index} ("${example.title}") does not satisfy the input schema: ${first?.message ?? 'invalid'}`,
        { path: first?.path ?? ['examples', index] },
      );
    }
  }
  const candidate = {
    id: definition.id,
    version: definition.version,
    title: definition.title,
    description: definition.description,
    tags: definition.tags,
    keywords: definition.keywords ?? [],
    domain: definition.domain,
    modes: definition.modes,
    role: definition.role,
    pool: definition.pool,
    input_kinds: definition.input_kinds,
    accepted_artifact_types: definition.accepted_artifact_types,
    produced_artifact_types: definition.produced_artifact_types,
    input_schema: toJsonSchema(definition.input, 'input'),
    output_schema: toJsonSchema(definition.output, 'output'),
    examples: definition.examples,
    relationships: definition.relationships,
    assurance_ceiling: definition.assurance_ceiling,
    scope_rule: definition.scope_rule,
    limits: definition.limits,
    provider_runtime: runtime,
    checker,
  };
  const parsed = CapabilityDescriptorSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JacobianError(
      'REGISTRATION_INVALID',
      `${definition.id}: descriptor is invalid at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`,
      { path: (issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p)) },
    );
  }
  return { descriptor: parsed.data, input: definition.input, definition: definition };
}
