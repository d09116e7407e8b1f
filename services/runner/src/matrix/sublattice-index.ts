import { z } from 'zod';
import { JacobianError, MATRIX_SCHEMA_URI, matrixOperandShape, refineMatrixOperand, requireIntegerMatrix, resolveMatrixOperand, type CapabilityDefinition, type MatrixOperand, type ProviderRuntime, type ResolvedMatrix } from '@jacobian/shared';
import { EngineSchema, exactOutcome, MATRIX_DESCRIPTOR_LIMITS, MATRIX_VERSION, providerEngine } from './capability-support.js';
import { INDEX_METHOD, runLattice } from './lattice-support.js';
import { abelianGroupStructure } from './smith-normal-form.js';

export const SUBLATTICE_INDEX_ID = 'lattice.sublattice_index.compute';

/** The rule a claimed sublattice breaks when one of its generators is not in L. */
export const NOT_A_SUBLATTICE_RULE = 'sublattice-contained';
/** The rule two lattices in different Z^n break. */
export const SAME_AMBIENT_RULE = 'same-ambient-dimension';

const Operand = z
  .object({ ...matrixOperandShape })
  .strict()
  .superRefine((input, ctx) => refineMatrixOperand(input, ctx));

export const SublatticeIndexInput = z
  .object({
    lattice: Operand.describe('L: its generators as the rows of an integer matrix ({"matrix": …} or {"matrix_uri": …})'),
    sublattice: Operand.describe('L′ ⊆ L: its generators as rows, as many columns as L\'s'),
  })
  .strict();
export type SublatticeIndexInput = z.infer<typeof SublatticeIndexInput>;

export const SublatticeIndexOutput = z
  .object({
    index: z.string().describe('[L : L′] in decimal, or "INFINITE" when rank L′ < rank L'),
    finite: z.boolean(),
    rank: z.number().int().describe('rank of L'),
    sublattice_rank: z.number().int().describe('rank of L′'),
    quotient_invariant_factors: z.array(z.string()).describe('the invariant factors of L / L′ above 1 (its torsion)'),
    quotient_structure: z.string().describe('L / L′ as an abelian group, e.g. "Z/2 ⊕ Z/6", "Z/3 ⊕ Z", or "0" when L′ = L'),
    lattice_basis: z.array(z.array(z.string())).describe('the Hermite basis of L the index was measured in'),
    engine: EngineSchema,
  })
  .strict();
export type SublatticeIndexOutput = z.infer<typeof SublatticeIndexOutput>;

async function resolveInteger(operand: MatrixOperand, field: 'lattice' | 'sublattice', context: Parameters<CapabilityDefinition<SublatticeIndexInput, SublatticeIndexOutput>['run']>[1]): Promise<ResolvedMatrix> {
  const path = ['payload', field];
  const resolved = await resolveMatrixOperand(operand, context.artifacts, { signal: context.signal, path });
  requireIntegerMatrix(resolved.matrix, operand.matrix_uri !== undefined ? [...path, 'matrix_uri'] : [...path, 'matrix', 'ring'], `the ${field === 'lattice' ? 'lattice L' : 'sublattice L′'}`);
  return resolved;
}

/** lattice.sublattice_index.compute on our TypeScript engine. */
export function sublatticeIndexCompute(runtime: ProviderRuntime): CapabilityDefinition<SublatticeIndexInput, SublatticeIndexOutput> {
  return {
    id: SUBLATTICE_INDEX_ID,
    version: MATRIX_VERSION,
    title: 'Index of a sublattice [L : L′]',
    description: `The index [L : L′] of a sublattice L′ ⊆ L ⊆ Z^n, both given by integer generators (rows; dependent ones allowed), exactly, with the structure of the quotient group L / L′ (its invariant factors by the Smith normal form). Equal ranks give a finite index (the ratio of covolumes, |det| of L′'s basis in L's coordinates); rank L′ < rank L gives "INFINITE" and a free part. A generator of L′ not in L is refused naming it and the rule (${NOT_A_SUBLATTICE_RULE}); different n by rule ${SAME_AMBIENT_RULE}.`,
    tags: ['lattice', 'integer', 'sublattice', 'index', 'abelian-group', 'exact', 'typescript'],
    keywords: ['index of a sublattice', 'sublattice index', '[L : M]', 'quotient of lattices', 'L / L′', 'finite index subgroup of Z^n', 'ratio of covolumes', 'lattice containment', 'is a vector in the lattice', 'superlattice'],
    domain: 'lattice',
    modes: ['EXPLORE'],
    role: 'producer',
    pool: 'heavy',
    input_kinds: ['STRUCTURED_REQUEST', 'TYPED_ARTIFACT'],
    accepted_artifact_types: [MATRIX_SCHEMA_URI],
    produced_artifact_types: [],
    input: SublatticeIndexInput,
    output: SublatticeIndexOutput,
    examples: [
      {
        title: '[Z^2 : 2Z ⊕ 3Z] = 6, quotient Z/6',
        mode: 'EXPLORE',
        payload: { lattice: { matrix: { ring: { kind: 'Z' }, rows: [[1, 0], [0, 1]] } }, sublattice: { matrix: { ring: { kind: 'Z' }, rows: [[2, 0], [0, 3]] } } },
      },
      {
        title: 'Index of the sublattice spanned by (2, 2, 0), (0, 2, 2) in the lattice D_3 = {x ∈ Z^3 : x_1 + x_2 + x_3 even}',
        mode: 'EXPLORE',
        payload: { lattice: { matrix: { ring: { kind: 'Z' }, rows: [[1, 1, 0], [0, 1, 1], [1, 0, 1]] } }, sublattice: { matrix: { ring: { kind: 'Z' }, rows: [[2, 2, 0], [0, 2, 2]] } } },
      },
    ],
    relationships: [],
    assurance_ceiling: 'COMPUTED',
    scope_rule: 'Covers exactly the two lattices spanned by the given integer rows: L′ ⊆ L and the index [L : L′] with the structure of L / L′.',
    limits: { ...MATRIX_DESCRIPTOR_LIMITS },
    async run(input, context) {
      const L = await resolveInteger(input.lattice, 'lattice', context);
      const S = await resolveInteger(input.sublattice, 'sublattice', context);
      if (L.matrix.ncols !== S.matrix.ncols) {
        const path = ['payload', 'sublattice', input.sublattice.matrix_uri !== undefined ? 'matrix_uri' : 'matrix'];
        throw new JacobianError('INVALID_REQUEST', `${path.join('.')}: L′ has vectors of length ${S.matrix.ncols} but L of length ${L.matrix.ncols}; both must lie in the same Z^n (rule ${SAME_AMBIENT_RULE})`, {
          path,
          data: { rule: SAME_AMBIENT_RULE, lattice_ncols: L.matrix.ncols, sublattice_ncols: S.matrix.ncols },
        });
      }
      const { output, ms } = await runLattice(context, { operation: 'index', lattice: L.matrix, sublattice: S.matrix });
      if (!output.contained) {
        const fromUri = input.sublattice.matrix_uri !== undefined;
        const path = fromUri ? ['payload', 'sublattice', 'matrix_uri'] : ['payload', 'sublattice', 'matrix', 'rows', output.generator];
        const vector = S.matrix.rows[output.generator] ?? [];
        throw new JacobianError(
          'INVALID_REQUEST',
          `${path.join('.')}: generator ${output.generator} of L′, (${vector.join(', ').slice(0, 400)}), is not in L (it cannot be written in L's Hermite basis: coordinate ${output.column} is not reached), so L′ is not a sublattice of L (rule ${NOT_A_SUBLATTICE_RULE})`,
          { path, data: { rule: NOT_A_SUBLATTICE_RULE, generator: output.generator, witness: vector.slice(0, 200) }, hint: 'swap the roles if L ⊆ L′ was meant, or use lattice.hermite_normal_form.compute of L and L′ together for their sum' },
        );
      }
      const freeRank = output.rank - output.sublattice_rank;
      const structure = abelianGroupStructure(output.torsion, freeRank);
      return exactOutcome<SublatticeIndexOutput>(
        {
          index: output.index ?? 'INFINITE',
          finite: output.index !== null,
          rank: output.rank,
          sublattice_rank: output.sublattice_rank,
          quotient_invariant_factors: output.torsion,
          quotient_structure: structure,
          lattice_basis: output.basis,
          engine: providerEngine(runtime, INDEX_METHOD, ms),
        },
        { ...L, input_uris: [...L.input_uris, ...S.input_uris] },
        `the index [L : L′] (${output.index ?? 'infinite'}) and L / L′ ≅ ${structure}`,
        'every generator of L′ was written in L\'s basis exactly and the quotient computed to the end',
        `L, spanned by the rows of ${L.description}, and L′, spanned by the rows of ${S.description}`,
      );
    },
  };
}
