import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JacobianError } from '../../errors.js';
import { MATRIX_LIMITS } from './limits.js';
import { canonicalEntry, canonicalMatrix, canonicalVector, ExplicitMatrixSchema, MatrixPayloadSchema, MatrixRule, parseExplicitMatrix, parseStoredMatrix, resolveMatrixRing, type MatrixRing } from './matrix.js';

const Z: MatrixRing = { kind: 'Z' };
const Q: MatrixRing = { kind: 'Q' };
const GF7: MatrixRing = { kind: 'GF', characteristic: '7' };

/** The first issue of a rejected matrix: its path and message. */
function rejection(input: unknown): { path: PropertyKey[]; message: string } {
  const parsed = ExplicitMatrixSchema.safeParse(input);
  expect(parsed.success).toBe(false);
  const issue = parsed.error?.issues[0];
  return { path: issue?.path ?? [], message: issue?.message ?? '' };
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

describe('matrix request form', () => {
  it('canonicalizes entries: integers without leading zeros, fractions in lowest terms, residues in [0, p)', () => {
    expect(canonicalMatrix(ExplicitMatrixSchema.parse({ ring: Z, rows: [[1, '-007'], ['-0', '12345678901234567890123']] }))).toEqual({
      ring: Z,
      nrows: 2,
      ncols: 2,
      rows: [['1', '-7'], ['0', '12345678901234567890123']],
    });
    expect(canonicalMatrix(ExplicitMatrixSchema.parse({ ring: Q, rows: [['4/2', '-6/4', '0/5'], ['3/-1'.replace('-', ''), '-10/15', 7]] })).rows).toEqual([
      ['2', '-3/2', '0'],
      ['3', '-2/3', '7'],
    ]);
    // In GF(7): -1 = 6, 1/2 = 4, 10 = 3, -3/4 = -3·2 = 1.
    expect(canonicalMatrix(ExplicitMatrixSchema.parse({ ring: GF7, rows: [[-1, '1/2', 10, '-3/4']] })).rows).toEqual([['6', '4', '3', '1']]);
  });

  it('rejects ragged rows, naming the row', () => {
    const { path, message } = rejection({ ring: Q, rows: [[1, 2], [3, 4], [5]] });
    expect(path).toEqual(['rows', 2]);
    expect(message).toContain('row 2 has 1 entries but row 0 has 2');
    expect(message).toContain(MatrixRule.RAGGED_ROWS);
  });

  it.each([
    [Z, 'x', MatrixRule.ENTRY_SYNTAX],
    [Z, '1.5', MatrixRule.ENTRY_SYNTAX],
    [Z, ' 1', MatrixRule.ENTRY_SYNTAX],
    [Z, '1/2', MatrixRule.INTEGER_ENTRY],
    [Q, '1/0', MatrixRule.ZERO_DENOMINATOR],
    [Q, '1/-2', MatrixRule.ENTRY_SYNTAX],
    [Q, '--1', MatrixRule.ENTRY_SYNTAX],
    [GF7, '3/14', MatrixRule.DENOMINATOR_DIVISIBLE_BY_P],
    [Q, `${'9'.repeat(1300)}`, MatrixRule.ENTRY_SIZE],
    [Z, (1n << 4096n).toString(), MatrixRule.ENTRY_SIZE],
    [Q, `1/${(1n << 4096n).toString()}`, MatrixRule.ENTRY_SIZE],
  ] as const)('over %o rejects the entry %s at its row and column (rule %s)', (ring, entry, rule) => {
    const { path, message } = rejection({ ring, rows: [[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, entry, 2]] });
    expect(path).toEqual(['rows', 3, 1]);
    expect(message).toContain('row 3, column 1');
    expect(message).toContain(`rule ${rule}`);
  });

  it('accepts the largest entries within the bound', () => {
    const max = ((1n << 4096n) - 1n).toString();
    expect(canonicalMatrix(ExplicitMatrixSchema.parse({ ring: Q, rows: [[`-${max}/${max}`, max]] })).rows).toEqual([['-1', max]]);
  });

  it('rejects GF(p) with p not prime, naming the characteristic', () => {
    for (const p of ['1', '9', '561', '4294967297']) {
      const { path, message } = rejection({ ring: { kind: 'GF', characteristic: p }, rows: [[1]] });
      expect(path).toEqual(['ring', 'characteristic']);
      expect(message).toContain('not a prime');
    }
    expect(() => resolveMatrixRing({ kind: 'GF', characteristic: '15' })).toThrow(JacobianError);
    expect(resolveMatrixRing({ kind: 'GF', characteristic: '170141183460469231731687303715884105727' }).name).toBe('GF(170141183460469231731687303715884105727)');
  });

  it('rejects dimensions over the bounds and empty matrices', () => {
    expect(ExplicitMatrixSchema.safeParse({ ring: Z, rows: Array.from({ length: MATRIX_LIMITS.maxRows + 1 }, () => [0]) }).success).toBe(false);
    expect(ExplicitMatrixSchema.safeParse({ ring: Z, rows: [Array.from({ length: MATRIX_LIMITS.maxColumns + 1 }, () => 0)] }).success).toBe(false);
    expect(ExplicitMatrixSchema.safeParse({ ring: Z, rows: [] }).success).toBe(false);
    expect(ExplicitMatrixSchema.safeParse({ ring: Z, rows: [[]] }).success).toBe(false);
    expect(ExplicitMatrixSchema.safeParse({ ring: Z, rows: [[2 ** 53]] }).success).toBe(false);
    expect(ExplicitMatrixSchema.safeParse({ ring: { kind: 'R' }, rows: [[1]] }).success).toBe(false);
  });

  it('parseExplicitMatrix throws INVALID_REQUEST with the full path', () => {
    try {
      parseExplicitMatrix({ ring: Q, rows: [[1, 2], [3, '4/0']] }, ['payload', 'matrix']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JacobianError);
      expect((error as JacobianError).code).toBe('INVALID_REQUEST');
      expect((error as JacobianError).path).toEqual(['payload', 'matrix', 'rows', 1, 1]);
    }
  });

  it('checks right-hand sides entry by entry', () => {
    expect(canonicalVector(['2/4', -3], resolveMatrixRing(Q), ['payload', 'rhs'])).toEqual(['1/2', '-3']);
    expect(() => canonicalVector([1, '1/2'], resolveMatrixRing(Z), ['payload', 'rhs'])).toThrow(expect.objectContaining({ path: ['payload', 'rhs', 1], data: { rule: MatrixRule.INTEGER_ENTRY } }) as Error);
  });
});

describe('canonical entries (properties)', () => {
  const int = fc.bigInt({ min: -(1n << 200n), max: 1n << 200n });
  const den = fc.bigInt({ min: 1n, max: 1n << 100n });

  it('over Q: the canonical text is the reduced fraction, whatever the representative, and is a fixed point', () => {
    fc.assert(
      fc.property(int, den, fc.bigInt({ min: 1n, max: 1000n }), (n, d, k) => {
        const ring = resolveMatrixRing(Q);
        const a = canonicalEntry(`${n * k}/${d * k}`, ring);
        const g = gcd(n, d);
        const expected = n === 0n ? '0' : d / g === 1n ? `${n / g}` : `${n / g}/${d / g}`;
        expect(a).toEqual({ text: expected });
        expect(canonicalEntry(expected, ring)).toEqual({ text: expected });
      }),
    );
  });

  it('over GF(p): the canonical residue r satisfies r·den ≡ num (mod p) and 0 ≤ r < p', () => {
    fc.assert(
      fc.property(int, den, fc.constantFrom(2n, 3n, 65537n, 2305843009213693951n), (n, d, p) => {
        fc.pre(d % p !== 0n);
        const entry = canonicalEntry(`${n}/${d}`, resolveMatrixRing({ kind: 'GF', characteristic: p.toString() }));
        expect('text' in entry).toBe(true);
        const r = BigInt((entry as { text: string }).text);
        expect(r >= 0n && r < p).toBe(true);
        expect((((r * d - n) % p) + p) % p).toBe(0n);
      }),
    );
  });

  it('the stored form accepts exactly canonical payloads', () => {
    const ok = { ring: Q, nrows: 2, ncols: 2, rows: [['1', '-1/2'], ['0', '3']] };
    expect(parseStoredMatrix(ok, ['payload'])).toEqual(ok);
    const cases: [unknown, PropertyKey[]][] = [
      [{ ...ok, rows: [['1', '-2/4'], ['0', '3']] }, ['rows', 0, 1]],
      [{ ...ok, rows: [['1', '-1/2'], ['-0', '3']] }, ['rows', 1, 0]],
      [{ ...ok, nrows: 3 }, ['rows']],
      [{ ...ok, rows: [['1'], ['0', '3']] }, ['rows', 0]],
      [{ ...ok, ring: GF7, rows: [['1', '7'], ['0', '3']] }, ['rows', 0, 1]],
      [{ ...ok, ring: { kind: 'GF', characteristic: '8' } }, ['ring', 'characteristic']],
    ];
    for (const [payload, path] of cases) {
      const parsed = MatrixPayloadSchema.safeParse(payload);
      expect(parsed.success, JSON.stringify(payload)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(path);
      expect(() => parseStoredMatrix(payload, ['payload', 'matrix_uri'])).toThrow(expect.objectContaining({ code: 'ARTIFACT_TYPE_MISMATCH' }) as Error);
    }
  });

  it('canonicalMatrix output always parses as a stored payload, and is idempotent', () => {
    const entry = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.tuple(fc.integer({ min: -50, max: 50 }), fc.constantFrom(1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 30)).map(([n, d]) => `${n}/${d}`));
    // Denominators prime to 7 and 101: over GF(p) the others are rejected (tested above).
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.constantFrom<MatrixRing>(Q, GF7, { kind: 'GF', characteristic: '101' }), fc.infiniteStream(entry), (m, n, ring, stream) => {
        const rows = Array.from({ length: m }, () => Array.from({ length: n }, (): string | number => stream.next().value as string | number));
        const payload = canonicalMatrix(ExplicitMatrixSchema.parse({ ring, rows }));
        expect(MatrixPayloadSchema.safeParse(payload).success).toBe(true);
        expect(canonicalMatrix(ExplicitMatrixSchema.parse({ ring, rows: payload.rows }))).toEqual(payload);
      }),
    );
  });
});
