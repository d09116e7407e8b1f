import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { DETERMINISTIC_MR_BOUND, factorInteger, powMod, type EcppCertificate, type EcppStep, type PrattCertificate, type PrimalityCertificate } from '@jacobian/shared';
import { checkFactorizationClaim, checkPrimalityClaim, type PrimalityCheckResult } from './primality-verify.js';

const GP = ['/usr/bin/gp', '/usr/local/bin/gp'].find((file) => existsSync(file));
const ECPP_300 = JSON.parse(readFileSync(new URL('./ecpp-300-digits.fixture.json', import.meta.url), 'utf8')) as EcppCertificate;

/** A Pratt/small certificate built here (test-side, from shared factorInteger), independent of the runner. */
function pratt(n: bigint): PrimalityCertificate {
  if (n < DETERMINISTIC_MR_BOUND) return { kind: 'small', n: n.toString() };
  const powers = factorInteger(n - 1n);
  for (let a = 2n; ; a++) {
    if (powMod(a, n - 1n, n) === 1n && powers.every((f) => powMod(a, (n - 1n) / f.prime, n) !== 1n)) {
      return { kind: 'pratt', n: n.toString(), witness: a.toString(), factors: powers.map((f) => ({ prime: f.prime.toString(), exponent: f.exponent, certificate: pratt(f.prime) })) };
    }
  }
}

const prime = (certificate: PrimalityCertificate): PrimalityCheckResult => checkPrimalityClaim({ n: certificate.n, verdict: 'PRIME', certificate });
const rejected = (result: PrimalityCheckResult): string => (result.accepted ? 'ACCEPTED' : result.reason_code);

// One Atkin–Morain step of PARI's primecert(10^30 + 57); its last q is below ψ13.
const ECPP_30: EcppCertificate = { kind: 'ecpp', n: '1000000000000000000000000000057', steps: [['1000000000000000000000000000057', '1941308218874090', '1603111594224', '0', ['519335238006017621936447751736', '51315546389334118416664791836']]] };

function withFirstStep(certificate: EcppCertificate, change: (step: EcppStep) => EcppStep): EcppCertificate {
  return { ...certificate, steps: [change(certificate.steps[0] as EcppStep), ...certificate.steps.slice(1)] };
}

describe('integer.primality.verify: certificates that must be accepted', () => {
  it('small primes, Pratt certificates of p − 1 smooth and non-smooth primes, and ECPP chains', () => {
    for (const n of [2n, 3n, 41n, 43n, 1_000_000_007n, 2n ** 61n - 1n]) {
      expect(rejected(prime({ kind: 'small', n: n.toString() }))).toBe('ACCEPTED');
    }
    // 2^89 − 1: p − 1 = 2·3²·5·17·23·89·353·397·683·2113·2931542417 (smooth).
    expect(rejected(prime(pratt(2n ** 89n - 1n)))).toBe('ACCEPTED');
    // A safe prime: p − 1 = 2q with q a 26-digit prime, certified by its own nested Pratt certificate (not smooth).
    const safe = pratt(20000000000000000000003507n);
    expect(safe.kind === 'pratt' && safe.factors.some((f) => f.certificate.kind === 'pratt')).toBe(true);
    expect(rejected(prime(safe))).toBe('ACCEPTED');
    expect(rejected(prime(ECPP_30))).toBe('ACCEPTED');
    expect(rejected(prime(ECPP_300))).toBe('ACCEPTED');
  });

  it('compositeness by a factor or a Miller–Rabin base, on Carmichael numbers, strong pseudoprimes and prime powers', () => {
    const ok = (n: string, witness: { kind: 'factor'; factor: string } | { kind: 'base'; base: string }): string => rejected(checkPrimalityClaim({ n, verdict: 'COMPOSITE', witness }));
    expect(ok('561', { kind: 'factor', factor: '3' })).toBe('ACCEPTED');
    expect(ok('561', { kind: 'base', base: '2' })).toBe('ACCEPTED'); // Carmichael, yet not a strong pseudoprime to 2
    expect(ok('3825123056546413051', { kind: 'base', base: '37' })).toBe('ACCEPTED'); // strong pseudoprime to every prime base ≤ 31
    expect(ok('1194649', { kind: 'factor', factor: '1093' })).toBe('ACCEPTED'); // 1093², a prime power
  });
});

describe('integer.primality.verify: certificates that must be rejected', () => {
  it('a wrong curve order, a tampered point, a wrong cofactor, a broken chain', () => {
    for (const certificate of [ECPP_30, ECPP_300]) {
      const n = BigInt(certificate.n);
      expect(rejected(prime(withFirstStep(certificate, ([N, t, s, a, P]) => [N, (BigInt(t) + 2n).toString(), s, a, P])))).toMatch(/ECPP_(ORDER|PARAMETERS|BOUND)/);
      // Moving P moves the curve (b is read from P). With a = 0 (j = 0) a curve y² = x³ + b′ with
      // b′/b a sixth power is isomorphic, of the same order, so the certificate would stay valid:
      // move y until b′/b is not a sixth power.
      const [, , , a0, [x0, y0]] = certificate.steps[0] as EcppStep;
      const b = (y: bigint): bigint => (((y * y - BigInt(x0) ** 3n - BigInt(a0) * BigInt(x0)) % n) + n) % n;
      let y1 = BigInt(y0) + 1n;
      while (powMod((b(y1) * powMod(b(BigInt(y0)), n - 2n, n)) % n, (n - 1n) / 6n, n) === 1n) y1++;
      expect(rejected(prime(withFirstStep(certificate, ([N, t, s, a, [x]]) => [N, t, s, a, [x, (y1 % n).toString()]])))).toMatch(/ECPP_(ORDER|COFACTOR)/);
      expect(rejected(prime(withFirstStep(certificate, ([N, t, s, a, [x, y]]) => [N, t, s, ((BigInt(a) + 1n) % n).toString(), [x, y]])))).toMatch(/ECPP_(ORDER|COFACTOR)/);
    }
    const twoSteps = ECPP_300.steps;
    const broken: EcppCertificate = { ...ECPP_300, steps: [twoSteps[0] as EcppStep, ...twoSteps.slice(2)] };
    expect(rejected(prime(broken))).toBe('ECPP_CHAIN');
    expect(rejected(prime({ ...ECPP_300, steps: ECPP_300.steps.slice(0, 3) }))).toBe('ECPP_LAST');
    // The same step presented as a certificate of a composite (7N is not the step's N): refused as malformed.
    expect(() => checkPrimalityClaim({ n: (BigInt(ECPP_30.n) * 7n).toString(), verdict: 'PRIME', certificate: { ...ECPP_30, n: (BigInt(ECPP_30.n) * 7n).toString() } })).toThrow(/ecpp-chain/);
    // A step whose N is composite (the prime N times 7, curve and point kept) cannot pass.
    const N7 = BigInt(ECPP_30.n) * 7n;
    const [, t7, s7, a7, P7] = ECPP_30.steps[0] as EcppStep;
    expect(rejected(prime({ kind: 'ecpp', n: N7.toString(), steps: [[N7.toString(), t7, s7, a7, P7]] }))).toMatch(/ECPP_(ORDER|COFACTOR|BOUND|PARAMETERS)/);
  });

  it('a missing factor of n − 1, a wrong witness, a nested certificate of another number', () => {
    const good = pratt(2n ** 89n - 1n);
    if (good.kind !== 'pratt') throw new Error('expected a Pratt certificate');
    expect(rejected(prime({ ...good, factors: good.factors.slice(1) }))).toBe('PRATT_INCOMPLETE');
    // 4 is a square, so 4^((n−1)/2) ≡ 1: not of order n − 1.
    expect(rejected(prime({ ...good, witness: '4' }))).toBe('PRATT_ORDER');
    expect(rejected(prime({ ...good, witness: '1' }))).toBe('PRATT_FERMAT');
    // Merging two primes into one "prime" keeps the product and fails that prime's own certificate.
    // 17 and 23 merged into the "prime" 391: the product still is n − 1; 391's own certificate fails.
    const merged = [...good.factors.filter((f) => f.prime !== '17' && f.prime !== '23'), { prime: '391', exponent: 1, certificate: { kind: 'small' as const, n: '391' } }].sort((u, v) => (BigInt(u.prime) < BigInt(v.prime) ? -1 : 1));
    expect(rejected(prime({ ...good, factors: merged }))).toBe('SMALL_NOT_PRIME');
  });

  it('composites with forged certificates: small, Pratt (Carmichael), and false witnesses', () => {
    // Below ψ13: a Carmichael number, a strong pseudoprime to the bases ≤ 23, ψ12 (strong pseudoprime to the bases ≤ 37).
    for (const n of ['561', '3825123056546413051', '318665857834031151167461', '1194649']) expect(rejected(prime({ kind: 'small', n }))).toBe('SMALL_NOT_PRIME');
    // 561 − 1 = 2^4·5·7 and a^560 ≡ 1 for every a prime to 561 (Korselt), but no a has order 560.
    for (const witness of ['2', '5', '7']) {
      const forged: PrimalityCertificate = { kind: 'pratt', n: '561', witness, factors: [{ prime: '2', exponent: 4, certificate: { kind: 'small', n: '2' } }, { prime: '5', exponent: 1, certificate: { kind: 'small', n: '5' } }, { prime: '7', exponent: 1, certificate: { kind: 'small', n: '7' } }] };
      expect(rejected(prime(forged))).toMatch(/PRATT_(ORDER|FERMAT)/);
    }
    const composite = (n: string, witness: { kind: 'factor'; factor: string } | { kind: 'base'; base: string }): string => rejected(checkPrimalityClaim({ n, verdict: 'COMPOSITE', witness }));
    expect(composite('3825123056546413051', { kind: 'base', base: '2' })).toBe('NOT_A_WITNESS');
    expect(composite('1194649', { kind: 'base', base: '2' })).toBe('NOT_A_WITNESS'); // 1093² is a strong pseudoprime to 2 (Wieferich)
    expect(composite('1000000007', { kind: 'base', base: '2' })).toBe('NOT_A_WITNESS');
    expect(composite('561', { kind: 'factor', factor: '5' })).toBe('NOT_A_FACTOR');
    expect(composite('561', { kind: 'factor', factor: '561' })).toBe('NOT_A_FACTOR');
    expect(composite('561', { kind: 'base', base: '560' })).toBe('NOT_A_WITNESS');
  });

  // Composite N = p·r (p, r primes near 10^9) with random curves, points, traces and cofactors: an ECPP step never passes.
  const PRIMES_NEAR_1E9 = [1000000007n, 1000000009n, 1000000021n, 1000000033n, 1000000087n, 1000000093n];
  test.prop([fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: -(2n * 10n ** 9n), max: 2n * 10n ** 9n }), fc.integer({ min: 1, max: 50 })])(
    'an ECPP step for a composite N is rejected whatever its curve, point, trace and cofactor',
    (i, j, a, x, y, t, s) => {
      const N = (PRIMES_NEAR_1E9[i] as bigint) * (PRIMES_NEAR_1E9[j] as bigint);
      const S = BigInt(s);
      const m = N + 1n - t;
      const tAdjusted = t + (m % S); // make s divide m = N + 1 − t
      const step: EcppStep = [N.toString(), tAdjusted.toString(), S.toString(), (a % N).toString(), [(x % N).toString(), (y % N).toString()]];
      expect(prime({ kind: 'ecpp', n: N.toString(), steps: [step] }).accepted).toBe(false);
    },
  );

  test.prop([fc.bigInt({ min: 42n, max: 10n ** 12n })])('a small certificate is accepted exactly when trial division says prime', (n) => {
    let isPrime = n > 1n;
    for (let d = 2n; d * d <= n && isPrime; d++) if (n % d === 0n) isPrime = false;
    expect(prime({ kind: 'small', n: n.toString() }).accepted).toBe(isPrime);
  });
});

describe('integer.factorization.verify', () => {
  const small = (n: string): PrimalityCertificate => ({ kind: 'small', n });
  it('accepts a certified factorization and rejects a missing factor or a composite "prime"', () => {
    const n = (2n ** 89n - 1n) * 3n ** 2n * 561n;
    const factors = [
      { prime: '3', exponent: 3, certificate: small('3') },
      { prime: '11', exponent: 1, certificate: small('11') },
      { prime: '17', exponent: 1, certificate: small('17') },
      { prime: (2n ** 89n - 1n).toString(), exponent: 1, certificate: pratt(2n ** 89n - 1n) },
    ];
    expect(rejected(checkFactorizationClaim({ n: n.toString(), factors }))).toBe('ACCEPTED');
    expect(rejected(checkFactorizationClaim({ n: '1', factors: [] }))).toBe('ACCEPTED');
    expect(rejected(checkFactorizationClaim({ n: n.toString(), factors: factors.filter((f) => f.prime !== '11') }))).toBe('PRODUCT_MISMATCH');
    // A huge exponent is rejected without building the power (2000-digit prime to the 10000th).
    const big = (10n ** 1999n + 7n).toString();
    const bigCertificate: PrimalityCertificate = { kind: 'pratt', n: big, witness: '3', factors: [{ prime: '2', exponent: 10_000, certificate: small('2') }] };
    expect(rejected(checkFactorizationClaim({ n: n.toString(), factors: [{ prime: big, exponent: 10_000, certificate: bigCertificate }] }))).toBe('PRODUCT_MISMATCH');
    expect(rejected(prime(bigCertificate))).toBe('PRATT_INCOMPLETE');
    // 561 presented as a prime: the product holds, the forged certificate does not.
    const forged = [{ prime: '3', exponent: 2, certificate: small('3') }, { prime: '561', exponent: 1, certificate: small('561') }, factors[3] as (typeof factors)[number]];
    const result = checkFactorizationClaim({ n: n.toString(), factors: forged });
    expect(rejected(result)).toBe('SMALL_NOT_PRIME');
    expect(result.accepted === false && result.path).toEqual(['factors', 1, 'certificate', 'n']);
  });
});

describe.skipIf(GP === undefined)('agreement with PARI/GP isprime and primecert on random numbers', () => {
  it("a Pratt certificate nesting PARI's ECPP certificate of the large prime of n − 1; tampering inside is found at its path", () => {
    const n = 400000000000000010329974800000000065723533813479n; // n = 2q + 1, q − 1 = 2ab with a, b of 24 and 25 digits
    const q = (n - 1n) / 2n;
    const out = execFileSync(GP as string, ['-q', '-f', '--default', 'parisizemax=256000000'], { input: `c=primecert(${q});for(j=1,#c,my(e=c[j]);print(e[1]," ",e[2]," ",e[3]," ",e[4]," ",e[5][1]," ",e[5][2]))`, encoding: 'utf8' });
    const steps = out
      .trim()
      .split('\n')
      .map((row): EcppStep => {
        const [N, t, s, a, x, y] = row.split(' ') as [string, string, string, string, string, string];
        return [N, t, s, a, [x, y]];
      });
    let witness = 2n;
    while (powMod(witness, n - 1n, n) !== 1n || powMod(witness, (n - 1n) / 2n, n) === 1n || powMod(witness, 2n, n) === 1n) witness++;
    const nested: PrattCertificate = { kind: 'pratt', n: n.toString(), witness: witness.toString(), factors: [{ prime: '2', exponent: 1, certificate: { kind: 'small', n: '2' } }, { prime: q.toString(), exponent: 1, certificate: { kind: 'ecpp', n: q.toString(), steps } }] };
    expect(rejected(prime(nested))).toBe('ACCEPTED');
    const [first, ...rest] = steps as [EcppStep, ...EcppStep[]];
    const tampered: PrattCertificate = { ...nested, factors: [nested.factors[0] as (typeof nested.factors)[number], { prime: q.toString(), exponent: 1, certificate: { kind: 'ecpp', n: q.toString(), steps: [[first[0], (BigInt(first[1]) + 2n).toString(), first[2], first[3], first[4]], ...rest] } }] };
    const result = prime(tampered);
    expect(result.accepted).toBe(false);
    if (!result.accepted) expect(result.path.slice(0, 6)).toEqual(['certificate', 'factors', 1, 'certificate', 'steps', 0]);
  }, 60_000);

  it('certificates PARI produces are accepted; our verdicts on random odd numbers agree with isprime', () => {
    const script = [
      'default(debugmem,0);',
      'setrand(20261208);',
      'for(i=1,40,n=random(10^40)+10^39;print(n," ",isprime(n)));',
      'for(i=1,4,p=nextprime(random(10^60)+10^59);c=primecert(p);print("C ",#c);for(j=1,#c,my(e=c[j]);print(e[1]," ",e[2]," ",e[3]," ",e[4]," ",e[5][1]," ",e[5][2])));',
    ].join('\n');
    const out = execFileSync(GP as string, ['-q', '-f', '--default', 'parisizemax=256000000'], { input: script, encoding: 'utf8' });
    const lines = out.trim().split('\n');
    let certificates = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.startsWith('C ')) {
        const count = Number(line.slice(2));
        const steps = lines.slice(i + 1, i + 1 + count).map((row): EcppStep => {
          const [N, t, s, a, x, y] = row.split(' ') as [string, string, string, string, string, string];
          return [N, t, s, a, [x, y]];
        });
        expect(rejected(prime({ kind: 'ecpp', n: (steps[0] as EcppStep)[0], steps }))).toBe('ACCEPTED');
        certificates++;
        i += count;
        continue;
      }
      const [n, isPrime] = line.split(' ') as [string, string];
      const N = BigInt(n);
      if (isPrime === '1') {
        expect(rejected(prime(pratt(N))), n).toBe('ACCEPTED');
      } else {
        // A composite: a base below 100 that witnesses it (none of these 40-digit randoms is a strong pseudoprime to all of them).
        const base = [...Array(98).keys()].map((k) => BigInt(k + 2)).find((a) => checkPrimalityClaim({ n, verdict: 'COMPOSITE', witness: { kind: 'base', base: a.toString() } }).accepted || N % 2n === 0n);
        if (N % 2n === 0n) expect(rejected(checkPrimalityClaim({ n, verdict: 'COMPOSITE', witness: { kind: 'factor', factor: '2' } }))).toBe('ACCEPTED');
        else expect(base, n).toBeDefined();
        // And no small/Pratt certificate of it can be accepted: its Fermat test fails for base 2 or its order does.
        expect(rejected(prime({ kind: 'pratt', n, witness: '2', factors: [{ prime: '2', exponent: 1, certificate: { kind: 'small', n: '2' } }] }))).not.toBe('ACCEPTED');
      }
    }
    expect(certificates).toBe(4);
  }, 120_000);
});
