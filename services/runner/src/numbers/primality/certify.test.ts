import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DETERMINISTIC_MR_BOUND, PrimalityCertificateSchema, PrimeClaimSchema, type EcppCertificate, type PrimalityCertificate } from '@jacobian/shared';
import { probePari, type PariTools } from '../../providers/pari.js';
import { certifyPrime } from './certify.js';
import { isPrimeBelowBound, replayPrimalityCertificate } from './replay.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));

function isPrimeNaive(n: number): boolean {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

describe('small primes and Pratt certificates without PARI', () => {
  it('decides n < ψ13 exactly (trial division agrees below 5000)', () => {
    for (let n = 0; n < 5000; n++) expect(isPrimeBelowBound(BigInt(n)), String(n)).toBe(isPrimeNaive(n));
    // Strong pseudoprimes to the first 12 prime bases (ψ12 = 318665857834031151167461) and a Carmichael number.
    expect(isPrimeBelowBound(318665857834031151167461n)).toBe(false);
    expect(isPrimeBelowBound(3825123056546413051n)).toBe(false);
    expect(isPrimeBelowBound(561n)).toBe(false);
  });

  it('certifies primes above ψ13 with Pratt certificates that replay and parse', async () => {
    // 2^89 − 1 (Mersenne), 10^30 + 57, and 2^127 − 1: n − 1 factors by trial division and rho.
    for (const n of [2n ** 89n - 1n, 10n ** 30n + 57n, 2n ** 127n - 1n]) {
      const certificate = await certifyPrime(n, { deadline: Date.now() + 60_000 });
      expect(certificate.kind).toBe('pratt');
      expect(certificate.n).toBe(n.toString());
      expect(PrimalityCertificateSchema.parse(certificate)).toEqual(certificate);
      expect(PrimeClaimSchema.safeParse({ n: n.toString(), verdict: 'PRIME', certificate }).success).toBe(true);
      expect(replayPrimalityCertificate(certificate)).toBeNull();
    }
  });

  it('refuses composites, with a typed error, and never returns a certificate for them', async () => {
    for (const n of [1n, 561n, 3825123056546413051n, DETERMINISTIC_MR_BOUND, (2n ** 89n - 1n) * (2n ** 61n - 1n), (2n ** 61n - 1n) ** 2n]) {
      await expect(certifyPrime(n)).rejects.toMatchObject({ code: 'INVALID_REQUEST', data: { rule: 'not-prime' } });
    }
  });

  it('stops with EXECUTION_TIMEOUT (rule certificate-budget) when nothing certifies n in time', async () => {
    // A 50-digit prime with n − 1 = 2·p·q, p and q of 25 digits: rho cannot split p·q in 200 ms.
    const n = 20000000000000000001099658000000000000004044684283n;
    await expect(certifyPrime(n, { deadline: Date.now() + 200 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
  });

  it('rejects tampered Pratt certificates in its own replay', async () => {
    const certificate = (await certifyPrime(10n ** 30n + 57n)) as Extract<PrimalityCertificate, { kind: 'pratt' }>;
    const missing = { ...certificate, factors: certificate.factors.slice(1) };
    expect(replayPrimalityCertificate(missing)?.reason).toContain('n − 1');
    const wrongWitness = { ...certificate, witness: '1' };
    expect(replayPrimalityCertificate(wrongWitness)).not.toBeNull();
  });
});

describe.skipIf(GP === undefined)('ECPP certificates from PARI/GP primecert', () => {
  let pari: PariTools;
  beforeAll(async () => {
    pari = (await probePari({ binary: GP as string })).tools;
  }, 60_000);

  it('nests certificates: a Pratt certificate whose large prime of n − 1 is certified by ECPP', async () => {
    // n = 2q + 1 with q − 1 = 2ab, a and b primes of 24 and 25 digits: rho cannot split ab in the Pratt try, PARI certifies q.
    const n = 400000000000000010329974800000000065723533813479n;
    const q = (n - 1n) / 2n;
    const certificate = await certifyPrime(n, { pari, deadline: Date.now() + 60_000 });
    expect(certificate).toMatchObject({ kind: 'pratt', factors: [{ prime: '2', exponent: 1 }, { prime: q.toString(), exponent: 1, certificate: { kind: 'ecpp', n: q.toString() } }] });
    expect(PrimalityCertificateSchema.parse(certificate)).toEqual(certificate);
    expect(replayPrimalityCertificate(certificate)).toBeNull();
    // Without PARI the same prime cannot be certified in a short budget.
    await expect(certifyPrime(n, { deadline: Date.now() + 300 })).rejects.toMatchObject({ code: 'EXECUTION_TIMEOUT' });
  }, 60_000);

  it('certifies a 100-digit prime by ECPP, replayed, and the replay rejects tampering', async () => {
    const n = 10n ** 99n + 289n; // nextprime(10^99)
    const certificate = (await certifyPrime(n, { pari, deadline: Date.now() + 60_000 })) as EcppCertificate;
    expect(certificate.kind).toBe('ecpp');
    expect(certificate.steps[0]?.[0]).toBe(n.toString());
    expect(PrimalityCertificateSchema.parse(certificate)).toEqual(certificate);
    expect(replayPrimalityCertificate(certificate)).toBeNull();
    const first = certificate.steps[0] as EcppCertificate['steps'][number];
    const tamper = (step: EcppCertificate['steps'][number]): EcppCertificate => ({ ...certificate, steps: [step, ...certificate.steps.slice(1)] });
    // A wrong curve order (t + 2), a point moved off its curve's multiples (y + 1), s doubled.
    expect(replayPrimalityCertificate(tamper([first[0], (BigInt(first[1]) + 2n).toString(), first[2], first[3], first[4]]))).not.toBeNull();
    expect(replayPrimalityCertificate(tamper([first[0], first[1], first[2], first[3], [first[4][0], ((BigInt(first[4][1]) + 1n) % n).toString()]]))).not.toBeNull();
    expect(replayPrimalityCertificate(tamper([first[0], first[1], (BigInt(first[2]) * 2n).toString(), first[3], first[4]]))).not.toBeNull();
  }, 60_000);
});
