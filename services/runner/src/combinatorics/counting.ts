/**
 * Exact counting on big integers: the algorithms behind the combinatorics capabilities. Each
 * function checks the run's budget (deadline, signal) every few thousand steps, so a long table
 * stops at its deadline rather than running on.
 */
import { checkBudget, type ArithmeticBudget } from '@jacobian/shared';

/** Steps between budget checks. */
const CHECK_EVERY = 2048;

function ticker(budget: ArithmeticBudget): () => void {
  let steps = 0;
  return () => {
    if (++steps % CHECK_EVERY === 0) checkBudget(budget);
  };
}

/** C(n, k) by the multiplicative formula ∏ (n−j)/(j+1), j < min(k, n−k), each division exact: O(min(k, n−k)) big-by-small steps. */
export function binomial(n: number, k: number, budget: ArithmeticBudget = {}): bigint {
  if (k < 0 || k > n) return 0n;
  const m = Math.min(k, n - k);
  const tick = ticker(budget);
  let c = 1n;
  for (let j = 0; j < m; j++) {
    c = (c * BigInt(n - j)) / BigInt(j + 1);
    tick();
  }
  return c;
}

/** C(n, 0..n) by C(n, k+1) = C(n, k)·(n−k)/(k+1), filled from both ends by symmetry. */
export function binomialRow(n: number, budget: ArithmeticBudget = {}): bigint[] {
  const row: bigint[] = new Array<bigint>(n + 1).fill(1n);
  const tick = ticker(budget);
  for (let k = 0; k < Math.floor(n / 2); k++) {
    const next = ((row[k] as bigint) * BigInt(n - k)) / BigInt(k + 1);
    row[k + 1] = next;
    row[n - k - 1] = next;
    tick();
  }
  return row;
}

/** (k1+…+km)!/(k1!…km!) as the product of C(k1+…+ki, ki). */
export function multinomial(parts: readonly number[], budget: ArithmeticBudget = {}): bigint {
  let total = 0;
  let value = 1n;
  for (const part of parts) {
    total += part;
    value *= binomial(total, part, budget);
  }
  return value;
}

export type StirlingKind = 'second' | 'first_unsigned' | 'first_signed';

/**
 * Row n of a Stirling triangle (k = 0..min(n, maxK)) by its recurrence, O(n²) big additions:
 * S(n,k) = k·S(n−1,k) + S(n−1,k−1); c(n,k) = (n−1)·c(n−1,k) + c(n−1,k−1); s(n,k) = (−1)^(n−k) c(n,k).
 */
export function stirlingRow(kind: StirlingKind, n: number, budget: ArithmeticBudget = {}, maxK = n): bigint[] {
  // Only columns k ≤ maxK are needed for T(n, maxK): O(n·maxK) additions.
  const width = Math.min(n, maxK);
  let row: bigint[] = [1n];
  const tick = ticker(budget);
  for (let m = 1; m <= n; m++) {
    const next: bigint[] = new Array<bigint>(Math.min(m, width) + 1).fill(0n);
    for (let k = 1; k <= Math.min(m, width); k++) {
      const weight = kind === 'second' ? BigInt(k) : BigInt(m - 1);
      next[k] = weight * (row[k] ?? 0n) + (row[k - 1] ?? 0n);
      tick();
    }
    row = next;
  }
  return kind === 'first_signed' ? row.map((c, k) => ((n - k) % 2 === 0 ? c : -c)) : row;
}

/** B(0..n) by the Bell (Aitken) triangle: each row starts with the last entry of the row before; O(n²) big additions. */
export function bellNumbers(n: number, budget: ArithmeticBudget = {}): bigint[] {
  const bells: bigint[] = [1n];
  let row: bigint[] = [1n];
  const tick = ticker(budget);
  for (let m = 1; m <= n; m++) {
    const next: bigint[] = [row[row.length - 1] as bigint];
    for (const entry of row) {
      next.push((next[next.length - 1] as bigint) + entry);
      tick();
    }
    row = next;
    bells.push(row[0] as bigint);
  }
  return bells;
}

/** C(0..n) by C(m+1) = C(m)·2(2m+1)/(m+2), each division exact: O(n) big-by-small steps. */
export function catalanNumbers(n: number, budget: ArithmeticBudget = {}): bigint[] {
  const values: bigint[] = [1n];
  const tick = ticker(budget);
  for (let m = 0; m < n; m++) {
    values.push(((values[m] as bigint) * BigInt(2 * (2 * m + 1))) / BigInt(m + 2));
    tick();
  }
  return values;
}

/** !0..!n by !m = (m−1)(!(m−1) + !(m−2)): O(n) big-by-small steps. */
export function derangementNumbers(n: number, budget: ArithmeticBudget = {}): bigint[] {
  const values: bigint[] = [1n, 0n].slice(0, n + 1);
  const tick = ticker(budget);
  for (let m = 2; m <= n; m++) {
    values.push(BigInt(m - 1) * ((values[m - 1] as bigint) + (values[m - 2] as bigint)));
    tick();
  }
  return values;
}

/** p(0..n) by Euler's pentagonal number theorem: p(m) = Σ_{j≥1} (−1)^(j+1) [p(m − j(3j−1)/2) + p(m − j(3j+1)/2)], O(n^1.5) big additions. */
export function partitionNumbers(n: number, budget: ArithmeticBudget = {}): bigint[] {
  const p: bigint[] = [1n];
  const tick = ticker(budget);
  for (let m = 1; m <= n; m++) {
    let sum = 0n;
    for (let j = 1; ; j++) {
      const a = m - (j * (3 * j - 1)) / 2;
      if (a < 0) break;
      const b = m - (j * (3 * j + 1)) / 2;
      const term = (p[a] as bigint) + (b >= 0 ? (p[b] as bigint) : 0n);
      sum = j % 2 === 1 ? sum + term : sum - term;
      tick();
    }
    p.push(sum);
  }
  return p;
}

/**
 * Partitions of 0..n into parts from `parts` (each used at most once when `distinct`) as the
 * coefficients of ∏_a 1/(1−x^a) or ∏_a (1+x^a), with the number of parts tracked up to
 * `maxCount` when it is given: t[j][m] partitions of m into j parts. O(n·|parts|·(maxCount+1)).
 * Returns, for each m, the counts by number of parts j = 0..maxCount (one column without maxCount).
 */
export function restrictedPartitions(n: number, parts: readonly number[], distinct: boolean, maxCount: number | undefined, budget: ArithmeticBudget = {}): bigint[][] {
  const layers = maxCount === undefined ? 1 : maxCount + 1;
  const t: bigint[][] = Array.from({ length: layers }, (_, j) => new Array<bigint>(n + 1).fill(0n).map((_, m) => (m === 0 && j === 0 ? 1n : 0n)));
  const tick = ticker(budget);
  for (const a of parts) {
    if (a > n) continue;
    if (maxCount === undefined) {
      const col = t[0] as bigint[];
      // Unbounded use: ascending m reads the updated cell; at most once: descending m reads the old one.
      if (distinct) for (let m = n; m >= a; m--, tick()) col[m] = (col[m] as bigint) + (col[m - a] as bigint);
      else for (let m = a; m <= n; m++, tick()) col[m] = (col[m] as bigint) + (col[m - a] as bigint);
      continue;
    }
    if (distinct) {
      for (let j = layers - 1; j >= 1; j--) {
        const to = t[j] as bigint[];
        const from = t[j - 1] as bigint[];
        for (let m = n; m >= a; m--, tick()) to[m] = (to[m] as bigint) + (from[m - a] as bigint);
      }
    } else {
      for (let j = 1; j < layers; j++) {
        const to = t[j] as bigint[];
        const from = t[j - 1] as bigint[];
        for (let m = a; m <= n; m++, tick()) to[m] = (to[m] as bigint) + (from[m - a] as bigint);
      }
    }
  }
  return Array.from({ length: n + 1 }, (_, m) => t.map((layer) => layer[m] as bigint));
}

/**
 * Compositions (ordered) of 0..n into parts from `parts`: c(m) = Σ_a c(m − a), or with the number
 * of parts tracked up to `maxCount`, c_j(m) = Σ_a c_{j−1}(m − a). O(n·|parts|·(maxCount+1)).
 * Returns, for each m, the counts by number of parts (one column without maxCount).
 */
export function restrictedCompositions(n: number, parts: readonly number[], maxCount: number | undefined, budget: ArithmeticBudget = {}): bigint[][] {
  const tick = ticker(budget);
  if (maxCount === undefined) {
    const c: bigint[] = [1n];
    for (let m = 1; m <= n; m++) {
      let sum = 0n;
      for (const a of parts) {
        if (a <= m) sum += c[m - a] as bigint;
        tick();
      }
      c.push(sum);
    }
    return c.map((value) => [value]);
  }
  const t: bigint[][] = [new Array<bigint>(n + 1).fill(0n).map((_, m) => (m === 0 ? 1n : 0n))];
  for (let j = 1; j <= maxCount; j++) {
    const from = t[j - 1] as bigint[];
    const layer = new Array<bigint>(n + 1).fill(0n);
    for (let m = 1; m <= n; m++) {
      let sum = 0n;
      for (const a of parts) {
        if (a <= m) sum += from[m - a] as bigint;
        tick();
      }
      layer[m] = sum;
    }
    t.push(layer);
  }
  return Array.from({ length: n + 1 }, (_, m) => t.map((layer) => layer[m] as bigint));
}
