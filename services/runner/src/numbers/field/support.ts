/**
 * What the number field and elliptic curve capabilities share: PARI/GP's tools from the probe,
 * gp runs under the run's budget, rational literals re-printed from canonical numbers, the
 * engine record, and the outcome of a PARI/GP computation rechecked (in part) by our exact code.
 */
import {
  JacobianError,
  parseRational,
  type CapabilityContext,
  type CapabilityOutcome,
  type Diagnostic,
  type Obligation,
  type ProviderRuntime,
  type Qualifier,
  type Rational,
} from '@jacobian/shared';
import { checkPariIdentity, gpInteger, gpProgram, PARI_PROVIDER, runGp, type GpAnswer, type GpSection, type PariTools } from '../../providers/pari.js';
import { pariRunOptions, type EngineRecord } from '../../matrix/capability-support.js';

export const NUMBER_FIELD_VERSION = '1.0.0';

/** The probe these capabilities register with (runner.ts passes the PARI/GP probe). */
export interface PariBackendOptions {
  readonly pari?: { readonly tools: PariTools | undefined } | undefined;
}

/**
 * gp's tools as the probe found them, read at run time; registration is refused on any other
 * provider (these capabilities are PARI/GP only, and register on its probe: fail closed).
 */
export function requirePari(id: string, runtime: ProviderRuntime, options: PariBackendOptions): () => PariTools {
  if (runtime.provider !== PARI_PROVIDER) throw new JacobianError('REGISTRATION_INVALID', `${id} runs on PARI/GP only, not on ${runtime.provider}`);
  return () => {
    const tools = options.pari?.tools;
    if (tools === undefined) throw new JacobianError('PROVIDER_UNAVAILABLE', `${id}: PARI/GP's probe has not vouched for a gp executable`);
    return tools;
  };
}

/** The gp literal of a canonical rational text, numerator and denominator re-printed by gpInteger. */
export function gpRational(text: string): string {
  const [num, den] = text.split('/');
  return den === undefined ? gpInteger(num as string) : `(${gpInteger(num as string)}/${gpInteger(den)})`;
}

/** Run a script of our definitions and sections on gp (identity checked first) under the run's budget. */
export async function runPari(tools: PariTools, context: CapabilityContext, definitions: readonly string[], sections: readonly GpSection[], deadline?: number): Promise<GpAnswer> {
  await checkPariIdentity(tools);
  const options = pariRunOptions(context);
  return runGp(tools.binary, gpProgram(definitions, sections), sections.map((s) => s.name), { ...options, deadline: deadline ?? options.deadline });
}

export function pariFailed(message: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `PARI/GP: ${message}; the result was discarded`);
}

/** The rows of a section, or PROVIDER_FAILED. */
export function section(answer: GpAnswer, name: string): string[][] {
  const rows = answer.sections[name];
  if (rows === undefined) throw pariFailed(`the section ${name} is missing`);
  return rows;
}

/** The one number on a one-number line. */
export function single(answer: GpAnswer, name: string, row = 0): string {
  const line = section(answer, name)[row];
  if (line?.length !== 1) throw pariFailed(`${name} line ${row} is not one number`);
  return line[0] as string;
}

export function integerOf(text: string, what: string): bigint {
  if (!/^-?\d+$/.test(text)) throw pariFailed(`${what} "${text.slice(0, 40)}" is not an integer`);
  return BigInt(text);
}

export function rationalOf(text: string, what: string): Rational {
  const q = parseRational(text);
  if (q === null) throw pariFailed(`${what} "${text.slice(0, 40)}" is not a rational number`);
  return q;
}

export function smallIntegerOf(text: string, what: string): number {
  const n = Number(integerOf(text, what));
  if (!Number.isSafeInteger(n)) throw pariFailed(`${what} ${text.slice(0, 40)} is out of range`);
  return n;
}

export function engine(runtime: ProviderRuntime, method: string, ms: number): EngineRecord {
  return { provider: runtime.provider, version: runtime.version, method, compute_ms: ms };
}

/** A COMPLETED outcome of a PARI/GP computation over the exact input: COMPUTED, never VERIFIED here. */
export function pariOutcome<O>(
  output: O,
  scope: string,
  parts: { completeness: string; assurance: string; qualifiers?: Qualifier[]; obligations?: Obligation[]; diagnostics?: Diagnostic[]; artifactUris?: string[] },
): CapabilityOutcome<O> {
  return {
    status: 'COMPLETED',
    output,
    scope: { kind: 'EXACT_INPUT', statement: scope.slice(0, 2000), input_uris: [] },
    completeness: { status: 'COMPLETE', basis: parts.completeness.slice(0, 1000) },
    qualifiers: parts.qualifiers ?? ['EXACT', 'DETERMINISTIC'],
    assurance: { level: 'COMPUTED', basis: parts.assurance.slice(0, 1000), verification_record_uri: null, checker_id: null },
    obligations: parts.obligations ?? [],
    relationships: [],
    artifact_uris: parts.artifactUris ?? [],
    diagnostics: parts.diagnostics ?? [],
  };
}

/** The statement of the GRH obligation of results from bnfinit (and the descents built on it). */
export const GRH_OBLIGATION_ID = 'grh';
