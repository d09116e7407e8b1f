import { describe, expect, it } from 'vitest';
import { DiophantineClaimSchema } from './diophantine.js';

describe('the Diophantine claim contract', () => {
  it('parses each kind', () => {
    expect(DiophantineClaimSchema.parse({ kind: 'PELL', D: '13', plus: { x: '649', y: '180' }, minus: { x: '18', y: '5' } }).kind).toBe('PELL');
    expect(DiophantineClaimSchema.parse({ kind: 'FORM_REDUCTION', form: ['3', '5', '7'], reduced: ['3', '-1', '5'], transform: [['1', '-1'], ['0', '1']] }).kind).toBe('FORM_REDUCTION');
    expect(DiophantineClaimSchema.parse({ kind: 'FORM_EQUIVALENCE', f: ['2', '1', '3'], g: ['2', '-1', '3'], equivalent: false, transform: null }).kind).toBe('FORM_EQUIVALENCE');
    expect(DiophantineClaimSchema.parse({ kind: 'CLASS_NUMBER', D: '-23', class_number: '3' }).kind).toBe('CLASS_NUMBER');
    expect(DiophantineClaimSchema.parse({ kind: 'INTEGER_SYSTEM_SOLVED', matrix: [['1', '1']], rhs: ['2'], particular: ['2', '0'], kernel: [['-1', '1']], kernel_right_inverse: [['0'], ['1']] }).kind).toBe('INTEGER_SYSTEM_SOLVED');
    expect(DiophantineClaimSchema.parse({ kind: 'INTEGER_SYSTEM_NONE', matrix: [['2', '4']], rhs: ['3'], certificate: ['1/2'] }).kind).toBe('INTEGER_SYSTEM_NONE');
  });

  it('refuses non-canonical integers, unknown fields and unknown kinds, naming the rule', () => {
    const bad = (claim: unknown): string => {
      const parsed = DiophantineClaimSchema.safeParse(claim);
      expect(parsed.success).toBe(false);
      return parsed.error?.issues.map((issue) => issue.message).join('; ') ?? '';
    };
    expect(bad({ kind: 'CLASS_NUMBER', D: '-023', class_number: '3' })).toMatch(/integer-text/);
    expect(bad({ kind: 'CLASS_NUMBER', D: '-0', class_number: '3' })).toMatch(/integer-text/);
    expect(bad({ kind: 'CLASS_NUMBER', D: '-23', class_number: 3 })).not.toBe('');
    expect(bad({ kind: 'CLASS_NUMBER', D: '-23', class_number: '3', extra: 1 })).not.toBe('');
    expect(bad({ kind: 'UNIT', D: '5' })).not.toBe('');
    expect(bad({ kind: 'INTEGER_SYSTEM_NONE', matrix: [['2', '4']], rhs: ['3'], certificate: ['1/0'] })).not.toBe('');
  });
});
