import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityResultSchema, seededRandom, type CapabilityResult, type InstalledCapability, type ProviderRuntime } from '@jacobian/shared';
import { probeCadical } from '../providers/cadical.js';
import { DRAT_REFUTATION_SEMANTICS_URI, parseCnfPayload, SAT_CNF_SCHEMA_URI, SAT_DRAT_SCHEMA_URI, SatCnfPayloadSchema, SatDratPayloadSchema, serializeDimacs } from '../sat/sat-domain.js';
import { createCapabilityHarness, FAKE_RUNTIME, type CapabilityHarness } from '../testing/fixtures.js';
import { splitConjunction, type SplitConjunctionOutput } from './conjunction-split.js';
import { CLAIMS_DECIDE_TS_PROVIDER, decidePropositional, type DecideOutput } from './decide.js';
import { implicationObligations, type ImplicationObligationsOutput } from './implication-obligations.js';
import {
  evaluatePropositional,
  formulaStats,
  parsePropositional,
  printPropositional,
  PROPOSITIONAL_LIMITS,
  PROPOSITIONAL_STRUCTURE_SCHEMA_URI,
  PropositionalStructurePayloadSchema,
  tseitin,
  type PropositionalFormula,
} from './propositional-domain.js';
import { validateClaim, type ValidateClaimOutput } from './validate.js';

const TS_RUNTIME: ProviderRuntime = { ...FAKE_RUNTIME, provider: CLAIMS_DECIDE_TS_PROVIDER };

/** A random formula text over p0 … p(atoms−1), fully parenthesized where it nests (the parser keeps the groups). */
function randomFormulaText(random: () => number, atoms: number, size: number, depth = 0): string {
  if (size <= 1 || depth > 8) return `p${Math.floor(random() * atoms)}`;
  const r = random();
  if (r < 0.15) return `!${randomFormulaText(random, atoms, size - 1, depth + 1)}`;
  const left = Math.max(1, Math.floor(random() * (size - 1)));
  const op = r < 0.4 ? '&' : r < 0.65 ? '|' : r < 0.85 ? '->' : '<->';
  const wrap = (s: string): string => (/^[!A-Za-z0-9_]+$/.test(s) ? s : `(${s})`);
  return `${wrap(randomFormulaText(random, atoms, left, depth + 1))} ${op} ${wrap(randomFormulaText(random, atoms, size - 1 - left, depth + 1))}`;
}

function truthTable(formula: PropositionalFormula): { valid: boolean; satisfiable: boolean } {
  const { atoms } = formulaStats(formula);
  let trues = 0;
  for (let bits = 0; bits < 2 ** atoms.length; bits++) {
    if (evaluatePropositional(formula, Object.fromEntries(atoms.map((name, i) => [name, ((bits >> i) & 1) === 1])))) trues++;
  }
  return { valid: trues === 2 ** atoms.length, satisfiable: trues > 0 };
}

describe('claim capabilities', () => {
  let h: CapabilityHarness;
  let validate: InstalledCapability;
  let split: InstalledCapability;
  let obligations: InstalledCapability;
  let decideCadical: InstalledCapability;
  let decideTs: InstalledCapability;
  beforeAll(async () => {
    h = await createCapabilityHarness();
    const cadical = await probeCadical();
    validate = h.install(validateClaim);
    split = h.install(splitConjunction);
    obligations = h.install(implicationObligations);
    decideCadical = h.install(decidePropositional(cadical), cadical);
    decideTs = h.install(decidePropositional(TS_RUNTIME), TS_RUNTIME);
  });
  afterAll(async () => {
    await h[Symbol.asyncDispose]();
  });

  async function run(capability: InstalledCapability, payload: Record<string, unknown>): Promise<CapabilityResult> {
    const result = await h.run(capability, { capability_id: capability.descriptor.id, mode: 'EXPLORE', payload });
    expect(CapabilityResultSchema.safeParse(result).success).toBe(true);
    return result;
  }
  async function ok<O>(capability: InstalledCapability, payload: Record<string, unknown>): Promise<{ result: CapabilityResult; output: O }> {
    const result = await run(capability, payload);
    expect(result.execution.status, JSON.stringify(result.diagnostics)).toBe('COMPLETED');
    return { result, output: result.output as O };
  }
  async function structureOf(uri: string): Promise<{ formula: unknown; parents: string[]; text: string }> {
    const stored = await h.artifacts.get(uri);
    expect(stored.manifest.schema_uri).toBe(PROPOSITIONAL_STRUCTURE_SCHEMA_URI);
    const payload = PropositionalStructurePayloadSchema.parse(stored.payload);
    return { formula: payload.formula, parents: stored.manifest.parents, text: payload.text };
  }

  describe('claim.validate', () => {
    it('stores text and the same tree under one URI, reporting atoms, size and depth', async () => {
      const { output, result } = await ok<ValidateClaimOutput>(validate, { formula: '((p implies q) and p) -> q' });
      expect(output).toMatchObject({ text: '((p -> q) & p) -> q', words: '((p implies q) and p) implies q', atoms: ['p', 'q'], atom_count: 2, nodes: 9, depth: 6, top_level: 'implies', outer_groups: 0 });
      expect(result.assurance.level).toBe('COMPUTED');
      const stored = await structureOf(output.structure_uri);
      expect(stored.formula).toEqual(parsePropositional(output.text));
      const fromTree = await ok<ValidateClaimOutput>(validate, { structure: stored.formula });
      expect(fromTree.output.structure_uri).toBe(output.structure_uri);
      const fromUri = await ok<ValidateClaimOutput>(validate, { structure_uri: output.structure_uri });
      expect(fromUri.output).toEqual(output);
    });

    it('stores a tree at the depth limit (canonical JSON nesting included)', async () => {
      let text = 'p0';
      for (let i = 1; formulaStats(parsePropositional(text)).depth < PROPOSITIONAL_LIMITS.maxDepth - 1; i++) text = i % 2 === 0 ? `p${i} & (${text})` : `p${i} | (${text})`;
      const { output } = await ok<ValidateClaimOutput>(validate, { formula: text });
      expect(output.depth).toBeGreaterThanOrEqual(PROPOSITIONAL_LIMITS.maxDepth - 1);
      expect((await structureOf(output.structure_uri)).text).toBe(printPropositional(parsePropositional(text)));
    });

    it.each([
      [{ formula: 'p & (q | r' }, ['payload', 'formula'], 'UNCLOSED_PARENTHESIS'],
      [{ formula: 'p -> -> q' }, ['payload', 'formula'], 'column 6'],
      [{ structure: { kind: 'and', operands: [{ kind: 'atom', name: 'p' }] } }, ['payload', 'structure', 'operands'], 'NODE_SHAPE'],
      [{ structure: { kind: 'not', operand: { kind: 'or', operands: [{ kind: 'atom', name: 'p' }, { kind: 'atom', name: 'q' }] } } }, ['payload', 'structure', 'operand'], 'PRECEDENCE'],
    ])('refuses %j naming the field and the rule', async (payload, path, message) => {
      const result = await run(validate, payload);
      expect(result.execution.status).toBe('ERROR');
      expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path });
      expect(result.diagnostics[0]?.message).toContain(message);
      expect(result.artifact_uris).toEqual([]);
    });

    it('refuses two operands at once, and a stored artifact of another type', async () => {
      expect((await run(validate, { formula: 'p', structure_uri: `artifact://sha256/${'0'.repeat(64)}` })).execution.status).toBe('ERROR');
      const cnf = await h.artifacts.put({ schema_uri: SAT_CNF_SCHEMA_URI, semantics_uri: 'jacobian:semantics/sat.cnf/v1', payload: { format: 'DIMACS_CNF', variables: 1, clauses: 1, dimacs: 'p cnf 1 1\n1 0\n' }, parents: [] });
      const result = await run(validate, { structure_uri: cnf.uri });
      expect(result.diagnostics[0]).toMatchObject({ code: 'ARTIFACT_TYPE_MISMATCH', path: ['payload', 'structure_uri'] });
    });
  });

  describe('claim.conjunction.split', () => {
    it('gives the immediate conjuncts in order, nested grouping kept, each stored with the source as parent', async () => {
      const { output, result } = await ok<SplitConjunctionOutput>(split, { formula: 'p & (q & r) & (p -> s) & !(t | p)' });
      expect(output.count).toBe(4);
      expect(output.conjuncts.map((c) => [c.index, c.text, c.top_level])).toEqual([
        [0, 'p', 'atom'],
        [1, '(q & r)', 'group'],
        [2, '(p -> s)', 'group'],
        [3, '!(t | p)', 'not'],
      ]);
      for (const part of output.conjuncts) {
        const stored = await structureOf(part.structure_uri);
        expect(stored.parents).toEqual([output.source_uri]);
        expect(stored.formula).toEqual(parsePropositional(part.text));
      }
      expect(output.reconstruction).toEqual({ operator: 'and', part_uris: output.conjuncts.map((c) => c.structure_uri), outer_groups: 0, text: 'p & (q & r) & (p -> s) & !(t | p)' });
      expect((await structureOf(output.source_uri)).text).toBe(output.reconstruction.text);
      expect(result.relationships).toHaveLength(4);
      expect(result.assurance.level).toBe('COMPUTED');
      // One level only: the grouped conjunct splits again, on its own.
      const again = await ok<SplitConjunctionOutput>(split, { structure_uri: output.conjuncts[1]?.structure_uri });
      expect(again.output.conjuncts.map((c) => c.text)).toEqual(['q', 'r']);
      expect(again.output.reconstruction).toMatchObject({ outer_groups: 1, text: '(q & r)' });
    });

    it('keeps (a & b) & c as two parts and a & (b & c) as two parts, differently', async () => {
      const left = await ok<SplitConjunctionOutput>(split, { formula: '(a & b) & c' });
      const right = await ok<SplitConjunctionOutput>(split, { formula: 'a & (b & c)' });
      expect(left.output.conjuncts.map((c) => c.text)).toEqual(['(a & b)', 'c']);
      expect(right.output.conjuncts.map((c) => c.text)).toEqual(['a', '(b & c)']);
      expect(left.output.source_uri).not.toBe(right.output.source_uri);
    });

    it.each(['p | q & r', 'p', '!(p & q)', '(p & q) -> r'])('refuses %s, whose main connective is not &, with rule NOT_A_CONJUNCTION', async (formula) => {
      const result = await run(split, { formula });
      expect(result.execution.status).toBe('ERROR');
      expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'formula'] });
      expect(result.diagnostics[0]?.message).toContain('NOT_A_CONJUNCTION');
      expect(result.artifact_uris).toEqual([]);
    });
  });

  describe('claim.implication.obligations', () => {
    it('gives the immediate antecedent and consequent, right-associated, grouping kept', async () => {
      const chain = await ok<ImplicationObligationsOutput>(obligations, { formula: 'a -> b -> c' });
      expect([chain.output.antecedent.text, chain.output.consequent.text]).toEqual(['a', 'b -> c']);
      expect(chain.output.obligation).toBe('assuming a, show b -> c');
      const grouped = await ok<ImplicationObligationsOutput>(obligations, { formula: '((a -> b) -> (c & (d | e)))' });
      expect(grouped.output.antecedent).toMatchObject({ role: 'ANTECEDENT', index: 0, text: '(a -> b)', top_level: 'group' });
      expect(grouped.output.consequent).toMatchObject({ role: 'CONSEQUENT', index: 1, text: '(c & (d | e))', top_level: 'group' });
      expect(grouped.output.reconstruction).toMatchObject({ operator: 'implies', outer_groups: 1, text: '((a -> b) -> (c & (d | e)))' });
      for (const part of [grouped.output.antecedent, grouped.output.consequent]) expect((await structureOf(part.structure_uri)).parents).toEqual([grouped.output.source_uri]);
    });

    it.each(['a & b', 'a <-> b', '!(a -> b)'])('refuses %s with rule NOT_AN_IMPLICATION', async (formula) => {
      const result = await run(obligations, { formula });
      expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'formula'] });
      expect(result.diagnostics[0]?.message).toContain('NOT_AN_IMPLICATION');
    });
  });

  describe.each([
    ['CaDiCaL', () => decideCadical, true],
    ['our TypeScript CDCL', () => decideTs, false],
  ])('claim.propositional.decide on %s', (_name, capability, proofs) => {
    it('agrees with brute-force truth tables on seeded random formulas up to 10 atoms, with rechecked assignments', async () => {
      const random = seededRandom(proofs ? 31 : 32);
      const seen = new Set<string>();
      for (let i = 0; i < (proofs ? 40 : 16); i++) {
        const text = randomFormulaText(random, 1 + Math.floor(random() * 10), 2 + Math.floor(random() * 14));
        const formula = parsePropositional(text);
        const truth = truthTable(formula);
        const { output } = await ok<DecideOutput>(capability(), { formula: text });
        const expected = truth.valid ? 'VALID' : truth.satisfiable ? 'SATISFIABLE' : 'UNSATISFIABLE';
        expect(output.verdict, text).toBe(expected);
        seen.add(expected);
        if (output.model !== null) expect(evaluatePropositional(formula, output.model)).toBe(true);
        if (output.falsifying_assignment !== null) expect(evaluatePropositional(formula, output.falsifying_assignment)).toBe(false);
        expect(output.model === null).toBe(expected === 'UNSATISFIABLE');
        expect(output.falsifying_assignment === null).toBe(expected !== 'SATISFIABLE');
        expect(output.refutation === null).toBe(expected === 'SATISFIABLE');
      }
      expect(seen.has('SATISFIABLE')).toBe(true);
    });

    it.each([
      ['((p -> q) -> p) -> p', 'VALID', 'NEGATION'],
      ['(p <-> !q) & (p <-> q)', 'UNSATISFIABLE', 'FORMULA'],
    ] as const)('%s is %s; the refuted Tseitin CNF is stored with the atom map%s', async (text, verdict, of) => {
      const { output, result } = await ok<DecideOutput>(capability(), { formula: text });
      expect(output).toMatchObject({ verdict, refutation: { of, verify_with: proofs ? 'claim.propositional.verify' : null }, solver: { drat_proofs: proofs } });
      const refutation = output.refutation as NonNullable<DecideOutput['refutation']>;
      const cnf = await h.artifacts.get(refutation.cnf_uri as string);
      expect(cnf.manifest).toMatchObject({ schema_uri: SAT_CNF_SCHEMA_URI, parents: [output.structure_uri] });
      const payload = SatCnfPayloadSchema.parse(cnf.payload);
      const expected = tseitin(parsePropositional(text), of);
      expect(serializeDimacs(parseCnfPayload(payload))).toBe(serializeDimacs(expected.cnf));
      expect(payload.encoding).toMatchObject({ kind: 'TSEITIN', target: of, atom_variables: expected.atomVariables, structure_uri: output.structure_uri });
      const ids = result.obligations.map((o) => o.id);
      expect(ids).toContain('tseitin-encoding-soundness');
      if (proofs) {
        const proof = await h.artifacts.get(refutation.proof_uri as string);
        expect(proof.manifest).toMatchObject({ schema_uri: SAT_DRAT_SCHEMA_URI, semantics_uri: DRAT_REFUTATION_SEMANTICS_URI, parents: [refutation.cnf_uri] });
        expect(SatDratPayloadSchema.parse(proof.payload).proof.trimEnd().endsWith('0')).toBe(true);
        expect(ids).toContain('drat-proof-check');
      } else {
        expect(refutation.proof_uri).toBeNull();
        expect(ids).toContain('unsat-certificate');
      }
      expect(result.assurance.level).toBe('COMPUTED');
    });

    it('decides a stored structure and answers SATISFIABLE with a model and a falsifying assignment', async () => {
      const stored = await ok<ValidateClaimOutput>(validate, { formula: '(p | q) & (p -> r)' });
      const { output } = await ok<DecideOutput>(capability(), { structure_uri: stored.output.structure_uri });
      expect(output).toMatchObject({ verdict: 'SATISFIABLE', structure_uri: stored.output.structure_uri, refutation: null, atoms: ['p', 'q', 'r'] });
      expect(output.encodings.map((e) => e.target)).toEqual(['FORMULA', 'NEGATION']);
    });

    it('decides a formula with an atom named __proto__ like any other', async () => {
      const { output } = await ok<DecideOutput>(capability(), { formula: '__proto__ & !p' });
      expect(output.verdict).toBe('SATISFIABLE');
      // Own keys, as the output's JSON carries them (an object literal's __proto__ would set the prototype).
      expect(Object.entries(output.model ?? {}).sort()).toEqual([['__proto__', true], ['p', false]]);
    });
  });

  it('decide registers only on cadical or its own TypeScript provider', () => {
    expect(() => decidePropositional({ ...FAKE_RUNTIME, provider: 'z3-solver' })).toThrow(/REGISTRATION|runs on cadical/);
  });

  it('decide refuses bad input before solving', async () => {
    const result = await run(decideCadical, { formula: 'p & & q' });
    expect(result.diagnostics[0]).toMatchObject({ code: 'INVALID_REQUEST', path: ['payload', 'formula'] });
    expect(result.diagnostics[0]?.message).toContain('EXPECTED_OPERAND');
  });
});
