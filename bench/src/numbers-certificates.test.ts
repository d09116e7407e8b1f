import { describe, expect, it } from 'vitest';
import { printCertificateTable, runCertificateBench } from './numbers-certificates.js';

describe('the primality certificate bench piece', () => {
  it('without PARI: produces and checks the small and Pratt cases, every certificate accepted, ECPP cases reported as skipped', async () => {
    const report = await runCertificateBench({ reps: 1 });
    expect(report.rows.map((r) => r.kind)).toEqual(['small', 'pratt', 'pratt', 'pratt']);
    expect(report.rows.every((r) => r.accepted)).toBe(true);
    expect(report.skipped).toHaveLength(3);
    expect(report.ecpp300CheckMs).toBeNull();
    const text = printCertificateTable(report);
    expect(text).toContain('check/produce');
    expect(text).toContain('skipped: ecpp 10^299 + 669 (300 digits): needs PARI/GP');
  }, 60_000);
});
