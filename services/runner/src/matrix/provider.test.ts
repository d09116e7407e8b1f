import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { admissibleFromDescriptor, installCapability, MATRIX_SOURCES } from '@jacobian/shared';
import { runnerRegistrations } from '../runner.js';
import { LINEAR_ALGEBRA_TS_PROVIDER, LINEAR_ALGEBRA_TS_SOURCES, linearAlgebraTsProvider, MATRIX_CAPABILITY_FACTORIES, PARI_MATRIX_CAPABILITY_FACTORIES } from './provider.js';

const ALL_FACTORIES = [...MATRIX_CAPABILITY_FACTORIES, ...PARI_MATRIX_CAPABILITY_FACTORIES.map((create) => (runtime: Parameters<typeof create>[0]) => create(runtime, {}))];

describe(LINEAR_ALGEBRA_TS_PROVIDER, () => {
  it('probes with a digest of its sources, each of which exists', async () => {
    for (const file of [...LINEAR_ALGEBRA_TS_SOURCES, ...MATRIX_SOURCES]) expect(existsSync(file), file).toBe(true);
    const runtime = await linearAlgebraTsProvider().probe();
    expect(runtime).toMatchObject({ provider: LINEAR_ALGEBRA_TS_PROVIDER, digest_kind: 'SOURCE_TREE', availability: 'AVAILABLE' });
  });

  it('installs every matrix capability with valid descriptors, each registered once in the runner on this provider', async () => {
    const runtime = await linearAlgebraTsProvider().probe();
    const ids = ALL_FACTORIES.map((create) => installCapability(create(runtime), runtime, null).descriptor.id);
    expect(ids).toEqual(['matrix.construct.explicit', 'matrix.rref.compute', 'matrix.inverse.compute', 'matrix.linear_system.solve', 'lattice.hermite_normal_form.compute', 'lattice.sublattice_index.compute', 'matrix.rational_canonical_form.compute', 'matrix.eigenvalues.compute', 'matrix.rank.compute', 'matrix.determinant.compute', 'matrix.nullspace.compute', 'matrix.hermite_normal_form.compute', 'matrix.smith_normal_form.compute', 'matrix.characteristic_polynomial.compute', 'matrix.minimal_polynomial.compute', 'lattice.basis.reduce']);
    expect(new Set(ids).size).toBe(ids.length);
    const registrations = runnerRegistrations();
    const ours = registrations.filter((registration) => registration.provider.name === LINEAR_ALGEBRA_TS_PROVIDER);
    expect(ours.map((registration) => registration.create(runtime).id)).toEqual(ids.slice(0, MATRIX_CAPABILITY_FACTORIES.length));
    // The others register with PARI/GP first and our engine as the fallback, and build on our runtime.
    const either = registrations.filter((registration) => registration.provider.name === `first-healthy-of(pari-gp, ${LINEAR_ALGEBRA_TS_PROVIDER})`);
    expect(either.map((registration) => registration.create(runtime).id)).toEqual(ids.slice(MATRIX_CAPABILITY_FACTORIES.length));
  });

  it('each descriptor JSON Schema admits its own examples (as an API that sees only descriptors admits requests) and refuses unknown fields (ragged rows and other cross-field rules are checked again by the runner schema, tested with the capabilities)', async () => {
    const runtime = await linearAlgebraTsProvider().probe();
    for (const create of ALL_FACTORIES) {
      const { descriptor } = installCapability(create(runtime), runtime, null);
      const { input } = admissibleFromDescriptor(descriptor);
      for (const example of descriptor.examples) expect(input.safeParse(example.payload).success, `${descriptor.id}: ${example.title}`).toBe(true);
      expect(input.safeParse({ matrix: { ring: { kind: 'Q' }, rows: [[1, 2]] }, rows: 'x' }).success, descriptor.id).toBe(false);
    }
  });
});
