/**
 * The standard benchmark systems of polynomial system solving, as texts in our grammar: cyclic-n
 * (the cyclic n-roots problem) and katsura-n (from Katsura's magnetism model). Tests and
 * benchmarks compare Groebner bases of these with other systems' answers.
 */

/** A named system: its variables (first is largest) and generator texts. */
export interface StandardSystem {
  readonly name: string;
  readonly variables: readonly string[];
  readonly generators: readonly string[];
}

/**
 * cyclic-n in x0 … x(n−1): for k = 1 … n−1, Σ_i Π_{j<k} x_{(i+j) mod n}, and x0·…·x(n−1) − 1.
 */
export function cyclicSystem(n: number): StandardSystem {
  if (!Number.isInteger(n) || n < 2 || n > 12) throw new RangeError('cyclic-n is defined here for 2 ≤ n ≤ 12');
  const x = Array.from({ length: n }, (_, i) => `x${i}`);
  const generators: string[] = [];
  for (let k = 1; k < n; k++) {
    const terms: string[] = [];
    for (let i = 0; i < n; i++) terms.push(Array.from({ length: k }, (_, j) => x[(i + j) % n] as string).join('*'));
    generators.push(terms.join(' + '));
  }
  generators.push(`${x.join('*')} - 1`);
  return { name: `cyclic-${n}`, variables: x, generators };
}

/**
 * katsura-n in u0 … un: for m = 0 … n−1, Σ_{l=−n}^{n} u_|l|·u_|m−l| − u_m (u_k = 0 for k > n), and
 * u0 + 2·(u1 + … + un) − 1.
 */
export function katsuraSystem(n: number): StandardSystem {
  if (!Number.isInteger(n) || n < 1 || n > 12) throw new RangeError('katsura-n is defined here for 1 ≤ n ≤ 12');
  const u = Array.from({ length: n + 1 }, (_, i) => `u${i}`);
  const at = (k: number): string | null => (Math.abs(k) <= n ? (u[Math.abs(k)] as string) : null);
  const generators: string[] = [];
  for (let m = 0; m < n; m++) {
    const terms: string[] = [];
    for (let l = -n; l <= n; l++) {
      const a = at(l);
      const b = at(m - l);
      if (a !== null && b !== null) terms.push(`${a}*${b}`);
    }
    generators.push(`${terms.join(' + ')} - ${u[m]}`);
  }
  generators.push(`${u[0]} + 2*(${u.slice(1).join(' + ')}) - 1`);
  return { name: `katsura-${n}`, variables: u, generators };
}
