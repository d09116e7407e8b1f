import { z } from 'zod';
import { MATRIX_SCHEMA_URI, NORMAL_FORM_CLAIM_SCHEMA_URI, type CapabilityDefinition, type Diagnostic, type ProviderRuntime } from '@jacobian/shared';
import { EngineSchema, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, type MatrixBackendOptions, pariRunOptions, pariToolsOf, providerEngine, resolveMatrix, servedBy, servedOutcome } from './capability-support.js';
import { PARI_HERMITE_METHOD, pariHermite } from './pari-backend.js';
import { NormalFormInput, normalFormEngine, requireInteger, runNormalForm, storeNormalFormClaim } from './normal-form-support.js';

export const MATRIX_HERMITE_NORMAL_FORM_ID = 'matrix.hermite_normal_form.compute';

/** The normal form the output promises, in words. */
export const HERMITE_CONVENTION =
  'row-style Hermite normal form H = U A with U unimodular (integer, det ±1): H is in row echelon form, its first `rank` rows non-zero with pivot columns strictly increasing, each pivot positive, every entry above a pivot in [0, pivot), the remaining rows zero; H is unique for A (it depends only on the lattice spanned by the rows of A)';

export const HermiteOutput = z
  .object({
    hnf: z.array(z.array(z.string())).describe('H, m×n, rows top to bottom, as decimal integers'),
    rank: z.number().int().describe('the rank of A: the number of non-zero rows of H'),
    pivot_columns: z.array(z.number().int()).describe('the pivot column of each non-zero row of H, counted from 0'),
    left_transform: z.array(z.array(z.string())).nullable().describe('U (m×m, unimodular) with U A = H, when transforms was true; null otherwise'),
    convention: z.string(),
    result_uri: z.string().nullable().describe('with transforms: the claim (A, H, U) stored for matrix.normal_form.verify; null otherwise'),
    engine: EngineSchema,
  })
  .strict();
export type HermiteOutput = z.infer<typeof HermiteOutput>;

/** matrix.hermite_normal_form.compute on PARI/GP (when `runtime` is its) or our TypeScript engine. */
export function hermiteNormalFormCompute(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<NormalFormInput, HermiteOutput> {
  const pari = pariToolsOf(MATRIX_HERMITE_NORMAL_FORM_ID, runtime, options);
  const served = servedBy(pari, `The Hermite normal form (HNF) of an integer matrix, any shape and any rank, exactly on big integers: the ${HERMITE_CONVENTION}. With "transforms": true also the unimodular transform U, and the claim is stored for matrix.normal_form.verify, which checks it independently. The HNF gives a canonical basis of the row lattice (integer row space, sublattice of Z^n): two integer matrices span the same lattice exactly when their HNFs agree. Matrices over Q or GF(p) are refused naming the rule (integer-matrix).`, ['matrix', 'linear-algebra', 'integer', 'lattice', 'hermite-normal-form', 'exact', 'typescript'], 'mathnf');
  return {
    id: MATRIX_HERMITE_NORMAL_FORM_ID,
    version: MATRIX_VERSION,
    title: 'Hermite normal form (HNF) over Z',
    description: served.description,
    tags: served.tags,
    keywords: [
      'Hermite normal form',
      'HNF',
      'row Hermite form',
      'echelon form over the integers',
      'integer row reduction',
      'unimodular transform',
      'unimodular matrix',
      'canonical basis of an integer lattice',
      'row lattice',
      'sublattice of Z^n',
      'integer row space',
      'same lattice',
      'mathnf',
      'HermiteNormalForm',
    ],
    domain: 'matrix',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [NORMAL_FORM_CLAIM_SCHEMA_URI],
    input: NormalFormInput,
    output: HermiteOutput,
    examples: [
      { title: 'HNF of a 3×3 integer matrix of rank 2', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[3, 3, 1], [0, 0, 0], [2, 2, 5]] } } },
      { title: 'HNF of a 2×3 integer matrix with the unimodular transform U (U A = H)', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[2, 4, 4], [-6, 6, 12]] }, transforms: true } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'matrix.normal_form.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the given integer matrix: its row-style Hermite normal form (and U when asked).',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const resolved = await resolveMatrix(input, context);
      requireInteger(resolved, input, 'the Hermite normal form');
      const output =
        pari === null
          ? await runNormalForm(context, { operation: 'hermite', matrix: resolved.matrix, transforms: input.transforms }).then(({ output: o, ms }) => ({ ...o, engine: normalFormEngine(runtime, ms) }))
          : await pariHermite(pari, resolved.matrix, input.transforms, pariRunOptions(context)).then((o) => ({ ...o, engine: providerEngine(runtime, PARI_HERMITE_METHOD, o.ms) }));
      const diagnostics: Diagnostic[] = [];
      const resultUri =
        output.transform === null
          ? null
          : await storeNormalFormClaim({ matrix: resolved.matrix, form: 'HERMITE', hnf: output.hnf, diagonal: null, left_transform: output.transform, right_transform: null }, resolved, context, diagnostics);
      return servedOutcome<HermiteOutput>(
        pari,
        { hnf: output.hnf, rank: output.rank, pivot_columns: output.pivots, left_transform: output.transform, convention: HERMITE_CONVENTION, result_uri: resultUri, engine: output.engine },
        resolved,
        `the Hermite normal form${output.transform === null ? '' : ' with its unimodular transform'}`,
        'the reduction ran to the end exactly',
        { evidence: { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics } },
      );
    },
  };
}
