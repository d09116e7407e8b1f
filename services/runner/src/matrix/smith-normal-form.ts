import { z } from 'zod';
import { MATRIX_SCHEMA_URI, NORMAL_FORM_CLAIM_SCHEMA_URI, type CapabilityDefinition, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import { EngineSchema, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, type MatrixBackendOptions, pariRunOptions, pariToolsOf, providerEngine, resolveMatrix, servedBy, servedOutcome } from './capability-support.js';
import { PARI_SMITH_METHOD, pariSmith } from './pari-backend.js';
import { NormalFormInput, normalFormEngine, requireInteger, runNormalForm, storeNormalFormClaim } from './normal-form-support.js';

export const MATRIX_SMITH_NORMAL_FORM_ID = 'matrix.smith_normal_form.compute';

export const SMITH_CONVENTION =
  'U A V = D with U (m×m) and V (n×n) unimodular (integer, det ±1) and D (m×n) diagonal with d_1 | d_2 | … | d_min(m,n), all non-negative; the d_i are unique (the invariant factors: d_1⋯d_k is the gcd of the k×k minors of A)';

export const SmithOutput = z
  .object({
    diagonal: z.array(z.string()).describe('d_1, …, d_min(m,n): the diagonal of D, non-negative, each dividing the next; the first `rank` are non-zero'),
    invariant_factors: z.array(z.string()).describe('the non-zero d_i (the invariant factors of A)'),
    rank: z.number().int(),
    cokernel: z
      .object({
        free_rank: z.number().int().describe('m − rank'),
        torsion: z.array(z.string()).describe('the invariant factors above 1'),
        structure: z.string().describe('Z^m / A Z^n as an abelian group, e.g. "Z/2 ⊕ Z/6 ⊕ Z"; "0" for the trivial group'),
      })
      .strict()
      .describe('the cokernel Z^m / A Z^n of x ↦ A x (for the rows of A as relations on n generators, Z^n / (row lattice) has the same torsion and free rank n − rank)'),
    left_transform: z.array(z.array(z.string())).nullable().describe('U (m×m, unimodular), when transforms was true; null otherwise'),
    right_transform: z.array(z.array(z.string())).nullable().describe('V (n×n, unimodular), when transforms was true; null otherwise'),
    convention: z.string(),
    result_uri: z.string().nullable().describe('with transforms: the claim (A, D, U, V) stored for matrix.normal_form.verify; null otherwise'),
    engine: EngineSchema,
  })
  .strict();
export type SmithOutput = z.infer<typeof SmithOutput>;

/** "Z/2 ⊕ Z/6 ⊕ Z^2", or "0". */
export function abelianGroupStructure(torsion: readonly string[], freeRank: number): string {
  const parts = torsion.map((d) => `Z/${d}`);
  if (freeRank === 1) parts.push('Z');
  else if (freeRank > 1) parts.push(`Z^${freeRank}`);
  return parts.length === 0 ? '0' : parts.join(' ⊕ ');
}

/** matrix.smith_normal_form.compute on PARI/GP (when `runtime` is its) or our TypeScript engine. */
export function smithNormalFormCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<NormalFormInput, SmithOutput> {
  const pari = pariToolsOf(MATRIX_SMITH_NORMAL_FORM_ID, runtime, options);
  const served = servedBy(pari, `The Smith normal form (SNF) of an integer matrix, any shape and any rank, exactly on big integers: ${SMITH_CONVENTION}. Gives the invariant factors and the abelian group structure of the cokernel (a finitely generated abelian group given by generators and relations: Z/d_1 ⊕ … ⊕ Z^free). Elementary divisors are the prime-power factors of the invariant factors. With "transforms": true also U and V, and the claim is stored for matrix.normal_form.verify, which checks it independently. Matrices over Q or GF(p) are refused naming the rule (integer-matrix).`, ['matrix', 'linear-algebra', 'integer', 'abelian-group', 'smith-normal-form', 'exact', 'typescript'], 'matsnf');
  return {
    id: MATRIX_SMITH_NORMAL_FORM_ID,
    version: MATRIX_VERSION,
    title: 'Smith normal form (SNF) over Z',
    description: served.description,
    tags: served.tags,
    keywords: [
      'Smith normal form',
      'SNF',
      'invariant factors',
      'elementary divisors',
      'abelian group structure',
      'structure of a finitely generated abelian group',
      'cokernel',
      'torsion subgroup',
      'presentation by generators and relations',
      'homology torsion from a boundary matrix',
      'unimodular transforms',
      'determinantal divisors',
      'equivalence of integer matrices',
      'matsnf',
      'SmithForm',
    ],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [NORMAL_FORM_CLAIM_SCHEMA_URI],
    input: NormalFormInput,
    output: SmithOutput,
    examples: [
      { title: 'SNF of a 3×3 integer matrix: diagonal 2, 6, 12 (cokernel Z/2 ⊕ Z/6 ⊕ Z/12)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 4, 4], [-6, 6, 12], [10, -4, -16]] } } },
      { title: 'SNF of a 2×3 relation matrix with U and V (U A V = D)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0, 0], [0, 3, 0]] }, transforms: true } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.normal_form.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given integer matrix: its Smith normal form (and U, V when asked) and the cokernel it determines.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireInteger(resolved, input, 'the Smith normal form');
      const output =
        pari === null
          ? await runNormalForm(context, { operation: 'smith', matrix: resolved.matrix, transforms: input.transforms }).then(({ output: o, ms }) => ({ ...o, engine: normalFormEngine(runtime, ms) }))
          : await pariSmith(pari, resolved.matrix, input.transforms, pariRunOptions(context)).then((o) => ({ ...o, engine: providerEngine(runtime, PARI_SMITH_METHOD, o.ms) }));
      const diagonal = output.diagonal;
      const invariant = diagonal.filter((d) => d !== '0');
      const torsion = invariant.filter((d) => d !== '1');
      const freeRank = resolved.matrix.nrows - output.rank;
      const diagnostics: Diagnostic[] = [];
      const resultUri =
        output.left === null || output.right === null
          ? null
          : await storeNormalFormClaim({ matrix: resolved.matrix, form: 'SMITH', hnf: null, diagonal, left_transform: output.left, right_transform: output.right }, resolved, context, diagnostics);
      return servedOutcome<SmithOutput>(
        pari,
        {
          diagonal,
          invariant_factors: invariant,
          rank: output.rank,
          cokernel: { free_rank: freeRank, torsion, structure: abelianGroupStructure(torsion, freeRank) },
          left_transform: output.left,
          right_transform: output.right,
          convention: SMITH_CONVENTION,
          result_uri: resultUri,
          engine: output.engine,
        },
        resolved,
        `the Smith normal form${output.left === null ? '' : ' with its unimodular transforms'}`,
        'the reduction ran to the end exactly',
        { evidence: { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics } },
      );
    },
  };
}
