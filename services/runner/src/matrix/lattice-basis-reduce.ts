import { z } from 'zod';
import {
  DEFAULT_DELTA,
  DELTA_RANGE,
  DeltaSchema,
  LATTICE_BASIS_CLAIM_SCHEMA_URI,
  LATTICE_BASIS_CLAIM_SEMANTICS_URI,
  LatticeBasisClaimSchema,
  MATRIX_SCHEMA_URI,
  parseDelta,
  type CapabilityContext,
  type CapabilityDefinition,
  type Diagnostic,
  type ProviderRuntime,
  type ResolvedMatrix,
} from '@jacobian/shared';
import type { PariTools } from '../providers/pari.js';
import { RUNNER_VERSION } from '../version.js';
import {
  EngineSchema,
  LINEAR_ALGEBRA_TS_PROVIDER,
  MATRIX_DESCRIPTOR_LIMITS,
  MATRIX_VERSION,
  matrixInput,
  pariRunOptions,
  pariToolsOf,
  providerEngine,
  resolveMatrix,
  servedBy,
  servedOutcome,
  storeClaim,
  type EngineRecord,
  type MatrixBackendOptions,
} from './capability-support.js';
import { LLL_METHOD, runLattice } from './lattice-support.js';
import { requireInteger } from './normal-form-support.js';
import { PARI_LLL_DELTA, PARI_LLL_METHOD, pariLll } from './pari-backend.js';

export const LATTICE_BASIS_REDUCE_ID = 'lattice.basis.reduce';

export const LLL_CONVENTION =
  'b′_1, …, b′_r is LLL-reduced with parameter δ: with b*_i the Gram–Schmidt vectors and μ_{i,j} = ⟨b′_i, b*_j⟩/|b*_j|², |μ_{i,j}| ≤ 1/2 for j < i (size reduction) and |b*_k|² ≥ (δ − μ_{k,k−1}²)|b*_{k−1}|² (Lovász); U B = reduced with U unimodular, so the rows span the same lattice; dependent generators give m − r zero rows last, and the last m − r rows of U are then a basis of the integer relations among the generators';

export const LatticeReduceInput = matrixInput({
  delta: DeltaSchema.default(DEFAULT_DELTA),
});
export type LatticeReduceInput = z.infer<typeof LatticeReduceInput>;

const Rows = z.array(z.array(z.string()));

export const LatticeReduceOutput = z
  .object({
    reduced: Rows.describe('B′ (m×n): the LLL-reduced basis in its first `rank` rows, then zero rows (dependent generators)'),
    rank: z.number().int().describe('the rank of the lattice (its dimension)'),
    transform: Rows.describe('U (m×m, unimodular) with U B = B′'),
    shortest_vector: z.array(z.string()).nullable().describe('b′_1, a short non-zero vector: |b′_1|² ≤ alpha^(r−1) λ_1², λ_1 the length of a shortest one; null for the zero lattice'),
    gram_schmidt_norms_squared: z.array(z.string()).describe('|b*_i|² for i = 1 … r, exact rationals'),
    covolume_squared: z.string().describe('det(B′_r B′_rᵀ), the squared volume of the lattice (|det B|² for a square basis)'),
    delta: z.string().describe('δ used, in lowest terms'),
    alpha: z.string().describe('1/(δ − 1/4), the approximation base of the guarantee'),
    dependent_generators: z.boolean().describe('true when the generators were linearly dependent (rank < m)'),
    swaps: z.number().int().nullable().describe('the swaps our engine made; null when PARI/GP served (qflll does not report them)'),
    convention: z.string(),
    result_uri: z.string().nullable().describe('the claim (B, δ, B′, U) stored for lattice.basis.verify'),
    engine: EngineSchema,
  })
  .strict();
export type LatticeReduceOutput = z.infer<typeof LatticeReduceOutput>;

const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
};
function fraction(num: bigint, den: bigint): string {
  const g = gcd(num, den);
  return den / g === 1n ? (num / g).toString() : `${num / g}/${den / g}`;
}

/** What one reduction gave, whoever computed it: the kernel's fields, the engine record, and whether PARI/GP served it. */
interface Reduction {
  reduced: string[][];
  transform: string[][];
  rank: number;
  gram: string[];
  dependent: boolean;
  swaps: number | null;
  engine: EngineRecord;
  served: PariTools | null;
}

/** δ ≤ 99/100, the Lovász constant PARI's qflll reaches. */
const withinPari = (delta: { num: bigint; den: bigint }): boolean => delta.num * PARI_LLL_DELTA.den <= PARI_LLL_DELTA.num * delta.den;

/**
 * The reduction on PARI/GP when it serves and δ allows (its answer rechecked and size-reduced
 * exactly in the lattice kernel), else on our engine; why PARI/GP did not serve goes to `diagnostics`.
 */
async function reduceOn(pari: PariTools | null, runtime: ProviderRuntime, context: CapabilityContext, resolved: ResolvedMatrix, delta: { num: bigint; den: bigint; text: string }, diagnostics: Diagnostic[]): Promise<Reduction> {
  if (pari !== null) {
    if (withinPari(delta)) {
      const answer = await pariLll(pari, resolved.matrix, pariRunOptions(context));
      const { output, ms } = await runLattice(context, { operation: 'adopt', matrix: resolved.matrix, delta: delta.text, transform: answer.transform, reduced: answer.reduced });
      if (output.accepted) {
        const { reduced, transform, rank, gram, dependent } = output;
        return { reduced, transform, rank, gram, dependent, swaps: null, engine: providerEngine(runtime, PARI_LLL_METHOD, answer.ms + ms), served: pari };
      }
      diagnostics.push({ severity: 'INFO', code: 'PROVIDER_FALLBACK', stage: 'EXECUTION', message: `PARI/GP's qflll basis (its δ is 0.99, its size bound 0.51), size-reduced exactly, fails the Lovász condition with δ = ${delta.text} at row ${output.row}; our engine computed the answer`, path: null, hint: null });
    } else {
      diagnostics.push({ severity: 'INFO', code: 'PROVIDER_FALLBACK', stage: 'EXECUTION', message: `δ = ${delta.text} is above 99/100, the Lovász constant of PARI/GP's qflll; our engine computed the answer`, path: ['payload', 'delta'], hint: null });
    }
  }
  const { output, ms } = await runLattice(context, { operation: 'reduce', matrix: resolved.matrix, delta: delta.text });
  // Within a PARI/GP registration our engine is still the one that computed: its record says so.
  const engine = pari === null ? providerEngine(runtime, LLL_METHOD, ms) : { provider: LINEAR_ALGEBRA_TS_PROVIDER, version: RUNNER_VERSION, method: LLL_METHOD, compute_ms: ms };
  const { reduced, transform, rank, gram, dependent, swaps } = output;
  return { reduced, transform, rank, gram, dependent, swaps, engine, served: null };
}

const DESCRIPTION = `Lenstra–Lenstra–Lovász (LLL) reduction of the lattice spanned by the rows of an integer matrix, exactly on big integers with a rational δ (${DELTA_RANGE}, default ${DEFAULT_DELTA}; δ = 1 has no polynomial bound, the budget stops it): ${LLL_CONVENTION}. Gives a short vector, Gram–Schmidt norms and the unimodular transform, and stores the claim for lattice.basis.verify. Linearly dependent generators are accepted (MLLL-style). Uses: integer relations, knapsack, approximate shortest vector (SVP).`;

/** lattice.basis.reduce on PARI/GP (when `runtime` is its; for δ ≤ 99/100) or our TypeScript engine. */
export function latticeBasisReduce(runtime: ProviderRuntime, options: MatrixBackendOptions = {}): CapabilityDefinition<LatticeReduceInput, LatticeReduceOutput> {
  const pari = pariToolsOf(LATTICE_BASIS_REDUCE_ID, runtime, options);
  const served = servedBy(pari, DESCRIPTION, ['lattice', 'integer', 'lll', 'basis-reduction', 'exact', 'typescript'], 'qflll');
  return {
    id: LATTICE_BASIS_REDUCE_ID,
    version: MATRIX_VERSION,
    title: 'LLL lattice basis reduction (exact)',
    description: pari === null ? served.description : `${served.description} PARI/GP serves δ ≤ 99/100 (its qflll's δ is 0.99; its basis is size-reduced and tested with your δ exactly, else ours answers), our engine δ above; LLL bases are not unique, so PARI's may differ from ours (same lattice, both reduced).`,
    tags: served.tags,
    keywords: [
      'LLL',
      'lattice reduction',
      'lattice basis reduction',
      'Lenstra–Lenstra–Lovász',
      'reduced basis',
      'short vector',
      'shortest vector problem',
      'Gram–Schmidt',
      'Lovász condition',
      'size reduction',
      'integer relation',
      'MLLL',
      'qflll',
      'LatticeReduce',
    ],
    domain: 'lattice',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [LATTICE_BASIS_CLAIM_SCHEMA_URI],
    input: LatticeReduceInput,
    output: LatticeReduceOutput,
    examples: [
      { title: 'LLL-reduce the basis (1, 1, 1), (−1, 0, 2), (3, 5, 6) with δ = 3/4', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[1, 1, 1], [-1, 0, 2], [3, 5, 6]] } } },
      { title: 'An integer relation among 1234567, 2345678, 3580245 (rows e_i | 10^8·a_i), δ = 0.99', mode: 'EXPLORE', payload: { matrix: { ring: { kind: 'Z' }, rows: [[1, 0, 0, 123456700000000], [0, 1, 0, 234567800000000], [0, 0, 1, 358024500000000]] }, delta: '0.99' } },
    ],
    relationships: [{ kind: 'VERIFIED_BY', capability_id: 'lattice.basis.verify' }],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the lattice spanned by the given integer rows: one LLL-reduced basis of it for the stated δ (LLL bases are not unique).',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS, delta_range: DELTA_RANGE },
    async run(input, context) {
      // δ before anything is read or computed.
      const delta = parseDelta(input.delta, ['payload', 'delta']);
      const resolved = await resolveMatrix(input, context);
      requireInteger(resolved, input, 'LLL reduction');
      const diagnostics: Diagnostic[] = [];
      const output = await reduceOn(pari, runtime, context, resolved, delta, diagnostics);
      const gram = output.gram.map((x) => BigInt(x));
      const norms = gram.map((d, i) => fraction(d, i === 0 ? 1n : (gram[i - 1] as bigint)));
      const claim = LatticeBasisClaimSchema.safeParse({ matrix: resolved.matrix, delta: delta.text, reduced: output.reduced, transform: output.transform });
      if (!claim.success) {
        diagnostics.push({ severity: 'WARNING', code: 'EVIDENCE_NOT_RETAINED', stage: 'ARTIFACT', message: `the claim was not stored: ${claim.error.issues[0]?.message ?? 'not a claim'}`.slice(0, 2000), path: null, hint: 'the answer in the output stands' });
      }
      const resultUri = !claim.success
        ? null
        : await storeClaim(
            { schema_uri: LATTICE_BASIS_CLAIM_SCHEMA_URI, semantics_uri: LATTICE_BASIS_CLAIM_SEMANTICS_URI, payload: claim.data, parents: resolved.input_uris, summary: { delta: delta.text, nrows: resolved.matrix.nrows, ncols: resolved.matrix.ncols, rank: output.rank } },
            context,
            diagnostics,
          );
      return servedOutcome<LatticeReduceOutput>(
        output.served,
        {
          reduced: output.reduced,
          rank: output.rank,
          transform: output.transform,
          shortest_vector: output.rank === 0 ? null : (output.reduced[0] ?? null),
          gram_schmidt_norms_squared: norms,
          covolume_squared: output.rank === 0 ? '1' : (output.gram[output.rank - 1] ?? '1'),
          delta: delta.text,
          alpha: fraction(4n * delta.den, 4n * delta.num - delta.den),
          dependent_generators: output.dependent,
          swaps: output.swaps,
          convention: LLL_CONVENTION,
          result_uri: resultUri,
          engine: output.engine,
        },
        resolved,
        `an LLL-reduced basis (δ = ${delta.text}) with its unimodular transform`,
        'the reduction ran to the end exactly; every LLL condition holds',
        {
          subject: `the lattice spanned by the rows of ${resolved.description}`,
          evidence: { artifact_uris: resultUri === null ? [] : [resultUri], diagnostics },
          pariBasis: 'PARI/GP ran to the end; its basis passed our exact recheck (U unimodular, U B = the basis, size-reduced exactly, every LLL condition holds with δ)',
        },
      );
    },
  };
}
