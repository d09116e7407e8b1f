/**
 * quadratic_form.class_group.compute: the class group of primitive positive definite binary
 * quadratic forms of discriminant D < 0 (the ideal class group of the imaginary quadratic order
 * of discriminant D). Up to |D| ≤ 10^9 by our own enumeration of reduced forms (exact and
 * unconditional) with the structure from composition; above that, where PARI/GP is installed,
 * by its quadclassunit (subexponential, correct under GRH only: labelled so), its generators'
 * orders rechecked by our composition.
 */
import { z } from 'zod';
import { DIOPHANTINE_CLAIM_SCHEMA_URI, DIOPHANTINE_LIMITS, JacobianError, type CapabilityDefinition, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import { PARI_PROVIDER, gpInteger, gpProgram, runGp, checkPariIdentity, type PariTools } from '../../providers/pari.js';
import { pariRunOptions } from '../../matrix/capability-support.js';
import { DIOPHANTINE_VERSION, EngineSchema, engineRecord, exactOutcome, integerInput, runDiophantine, storeDiophantineClaim } from './support.js';

export const CLASS_GROUP_ID = 'quadratic_form.class_group.compute';
const OURS_MAX = DIOPHANTINE_LIMITS.ourClassGroupMaxAbsD;
const MAX_LISTED = 10_000;

export const ClassGroupInput = z
  .object({
    discriminant: integerInput(DIOPHANTINE_LIMITS.maxClassGroupDigits).describe('D < 0 with D ≡ 0 or 1 (mod 4), e.g. -23 or -4·5 = -20; not necessarily fundamental'),
    list_forms: z.boolean().default(false).describe(`also list the h reduced forms (our enumeration only, h ≤ ${MAX_LISTED}); default false`),
  })
  .strict();
export type ClassGroupInput = z.infer<typeof ClassGroupInput>;

const Form = z.tuple([z.string(), z.string(), z.string()]);
export const ClassGroupOutput = z
  .object({
    discriminant: z.string(),
    class_number: z.string().describe('h(D): the number of classes of primitive positive definite forms of discriminant D'),
    invariants: z.array(z.string()).describe('d1 | d2 | … (each > 1): the group is Z/d1 × Z/d2 × …; empty for the trivial group'),
    generators: z.array(Form).describe('one form (a, b, c) per invariant, of that order; together they generate the group'),
    forms: z.array(Form).nullable().describe('the h reduced forms, when list_forms was asked and our enumeration served'),
    conditional_on: z.enum(['GRH']).nullable().describe('GRH when the answer is PARI\'s quadclassunit, which assumes the generalized Riemann hypothesis; null when unconditional'),
    method: z.string(),
    result_uri: z.string().nullable().describe('our unconditional class group, stored for diophantine.claim.verify (which counts reduced forms and composes the generators itself)'),
    engine: EngineSchema,
  })
  .strict();
export type ClassGroupOutput = z.infer<typeof ClassGroupOutput>;

const ENUMERATION = 'enumeration of the primitive reduced forms (class number h exactly); structure by Gauss composition (Shanks) with reduction and the Smith normal form of the relations among greedily chosen generators; rechecked by generating all h classes from the returned generators';

export function classGroupCompute(runtime: ProviderRuntime, options: { pari?: { readonly tools: PariTools | undefined } } = {}): CapabilityDefinition<ClassGroupInput, ClassGroupOutput> {
  const tools = runtime.provider === PARI_PROVIDER ? (options.pari?.tools ?? null) : null;
  if (runtime.provider === PARI_PROVIDER && tools === null) throw new JacobianError('REGISTRATION_INVALID', `${CLASS_GROUP_ID} on PARI/GP needs the tools its probe found`);
  const maxDigits = tools === null ? OURS_MAX.toString().length : DIOPHANTINE_LIMITS.maxClassGroupDigits;
  return {
    id: CLASS_GROUP_ID,
    version: DIOPHANTINE_VERSION,
    title: 'Class number and class group of an imaginary quadratic discriminant',
    description: `The class number h(D) and the class group (its invariants d1 | d2 | … and generating forms) of primitive positive definite binary quadratic forms of discriminant D < 0 — the ideal class group of the imaginary quadratic order of discriminant D. For |D| ≤ ${OURS_MAX}: exact and unconditional, by our enumeration of reduced forms and Gauss composition, rechecked by generating all classes from the generators. ${tools === null ? `Larger |D| needs PARI/GP, not installed here (rule class-group-size).` : `Larger |D| (up to ${DIOPHANTINE_LIMITS.maxClassGroupDigits} digits): PARI/GP quadclassunit, which assumes GRH — the answer says conditional_on: GRH and its assurance basis says so; the generators' orders are rechecked by our composition, not their independence.`} Examples: h(−23) = 3, h(−163) = 1 (Heegner), h(−20020): Z/2 × Z/2 × Z/2 × Z/4.`,
    tags: ['number-theory', 'quadratic-form', 'class-group', 'class-number', 'imaginary-quadratic', 'exact', tools === null ? 'typescript' : 'pari-gp'],
    keywords: ['class number', 'class group', 'ideal class group', 'imaginary quadratic field', 'imaginary quadratic order', 'binary quadratic forms of discriminant D', 'reduced forms', 'Gauss composition', 'Dirichlet composition', 'form class group', 'Heegner numbers', 'h(D)', 'qfbclassno', 'quadclassunit'],
    domain: 'number_theory',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST'],
    accepted_artifact_types: [],
    produced_artifact_types: [DIOPHANTINE_CLAIM_SCHEMA_URI],
    input: ClassGroupInput,
    output: ClassGroupOutput,
    examples: [
      { title: 'h(−23) = 3: the forms (1, 1, 6), (2, ±1, 3)', mode: 'EXPLORE', payload: { discriminant: -23, list_forms: true } },
      { title: 'D = −20020: Z/2 × Z/2 × Z/2 × Z/4, h = 32', mode: 'EXPLORE', payload: { discriminant: -20020 } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'diophantine.claim.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given discriminant: its class number and class group structure (unconditional for our enumeration; under GRH when PARI serves).',
    limits: { max_discriminant_digits: maxDigits, ours_max_abs_discriminant: OURS_MAX.toString() },
    async run(input, context) {
      const D = BigInt(input.discriminant);
      const path = ['payload', 'discriminant'];
      if (D >= 0n || ((D % 4n) + 4n) % 4n > 1n) {
        throw new JacobianError('INVALID_REQUEST', `payload.discriminant: ${input.discriminant} is not an imaginary quadratic discriminant (negative, ≡ 0 or 1 mod 4) (rule imaginary-discriminant)`, { path, data: { rule: 'imaginary-discriminant' } });
      }
      const ours = -D <= OURS_MAX;
      if (!ours && tools === null) {
        throw new JacobianError('INVALID_REQUEST', `payload.discriminant: |D| > ${OURS_MAX} needs PARI/GP, which is not installed here (rule class-group-size)`, { path, data: { rule: 'class-group-size', max: OURS_MAX.toString() } });
      }
      if (input.list_forms && !ours) {
        throw new JacobianError('INVALID_REQUEST', `payload.list_forms: the forms are listed only for |D| ≤ ${OURS_MAX} (rule list-forms-size)`, { path: ['payload', 'list_forms'], data: { rule: 'list-forms-size' } });
      }
      const diagnostics: Diagnostic[] = [];
      if (ours) {
        const { output, ms } = await runDiophantine(context, { operation: 'class_group', D: input.discriminant, list_forms: input.list_forms });
        if (output.forms !== null && output.forms.length > MAX_LISTED) {
          output.forms = null;
          diagnostics.push({ severity: 'INFO', code: 'OUTPUT_ABRIDGED', stage: 'EXECUTION', message: `h = ${output.class_number} > ${MAX_LISTED}: the forms are not listed`, path: ['payload', 'list_forms'], hint: null });
        }
        const resultUri = await storeDiophantineClaim(
          { kind: 'CLASS_GROUP', D: input.discriminant, class_number: String(output.class_number), invariants: output.invariants, generators: output.generators },
          { kind: 'CLASS_GROUP', D: input.discriminant },
          context,
          diagnostics,
        );
        return exactOutcome<ClassGroupOutput>(
          { discriminant: input.discriminant, class_number: String(output.class_number), invariants: output.invariants, generators: output.generators, forms: output.forms, conditional_on: null, method: ENUMERATION, result_uri: resultUri, engine: engineRecord(runtime, ENUMERATION, ms) },
          `the class number and class group of discriminant ${input.discriminant}`,
          `all reduced forms enumerated (a ≤ √(|D|/3)); the ${output.invariants.length} generators give exactly the ${output.class_number} classes`,
          { artifactUris: resultUri === null ? [] : [resultUri], diagnostics, assurance: 'computed exactly and unconditionally by our TypeScript enumeration of reduced forms and rechecked as the method says; diophantine.claim.verify re-counts the reduced forms and re-composes the generators independently' },
        );
      }
      const pari = tools as PariTools;
      await checkPariIdentity(pari);
      const script = gpProgram([`D=${gpInteger(input.discriminant)};`, 'r=quadclassunit(D);'], [
        { name: 'h', statements: 'print(r[1]);' },
        { name: 'cyc', statements: 'jv(r[2]);' },
        { name: 'gens', statements: 'for(i=1,#r[3],jv(Vec(r[3][i])));' },
      ]);
      const answer = await runGp(pari.binary, script, ['h', 'cyc', 'gens'], pariRunOptions(context));
      const h = answer.sections['h']?.[0]?.[0];
      const cyc = answer.sections['cyc']?.[0] ?? [];
      const gens = (answer.sections['gens'] ?? []).map((row) => row as [string, string, string]);
      if (h === undefined || gens.length !== cyc.length || gens.some((g) => g.length !== 3) || cyc.reduce((p, d) => p * BigInt(d), 1n).toString() !== h) {
        throw new JacobianError('PROVIDER_FAILED', 'PARI/GP: quadclassunit answered a class group whose invariants do not multiply to h or whose generators do not match; the result was discarded');
      }
      // Our recheck of what can be rechecked cheaply: each generator has discriminant D and order dividing its invariant.
      const { output: check } = await runDiophantine(context, { operation: 'check_generators', D: input.discriminant, invariants: cyc, generators: gens });
      if (!check.ok) throw new JacobianError('PROVIDER_FAILED', `PARI/GP: quadclassunit's generators failed our recheck (${check.message}); the result was discarded`);
      // PARI lists invariants largest first; ours go smallest first (d1 | d2 | …).
      const order = cyc.map((d, i) => ({ d, g: gens[i] as [string, string, string] })).reverse();
      const method = 'PARI/GP quadclassunit (Buchmann–McCurley subexponential class group algorithm; correct under GRH, not certified); generators reduced and their orders rechecked by our composition';
      return exactOutcome<ClassGroupOutput>(
        { discriminant: input.discriminant, class_number: h, invariants: order.map((o) => o.d).filter((d) => d !== '1'), generators: order.filter((o) => o.d !== '1').map((o) => o.g), forms: null, conditional_on: 'GRH', method, result_uri: null, engine: engineRecord(runtime, method, answer.runtimeMs) },
        `the class number and class group of discriminant ${input.discriminant}, assuming GRH`,
        'PARI/GP quadclassunit ran to the end; invariants multiply to h; each generator has order dividing its invariant (our recheck)',
        { qualifiers: ['DETERMINISTIC'], assurance: 'conditional on the generalized Riemann hypothesis (GRH): computed by PARI/GP quadclassunit, which assumes GRH and does not certify; not independently verified', diagnostics },
      );
    },
  };
}
