/**
 * The greatest common divisor of large bigints by Lehmer's method (Knuth, TAOCP vol. 2, §4.5.2,
 * Algorithm L): the quotients of Euclid's algorithm are found from the leading 50 bits in doubles,
 * and one combination of the full numbers then replaces a run of about 25 bigint divisions. The
 * Groebner engine takes the content of polynomials whose coefficients have thousands of bits;
 * plain Euclid on bigints spent most of its time there (cyclic-6 over Q).
 */

const SAFE = 9007199254740991n;

/** Bits of a positive bigint. */
function bitLength(a: bigint): number {
  const hex = a.toString(16);
  return (hex.length - 1) * 4 + Math.floor(Math.log2(Number.parseInt(hex.slice(0, 1), 16))) + 1;
}

function smallGcd(x: number, y: number): number {
  while (y !== 0) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/** gcd(|a|, |b|), gcd(0, 0) = 0. */
export function lehmerGcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  if (a < b) [a, b] = [b, a];
  while (b > SAFE) {
    // x, y: the leading 50 bits of a and b, shifted alike. While the quotients of (x + A)/(y + C)
    // and (x + B)/(y + D) agree, they are the quotients Euclid would take on a and b.
    const shift = bitLength(a) - 50;
    const s = BigInt(shift);
    let x = Number(a >> s);
    let y = Number(b >> s);
    let A = 1;
    let B = 0;
    let C = 0;
    let D = 1;
    for (;;) {
      if (y + C === 0 || y + D === 0) break;
      const q = Math.floor((x + A) / (y + C));
      if (q !== Math.floor((x + B) / (y + D))) break;
      const nA = A - q * C;
      const nB = B - q * D;
      const nx = x - q * y;
      A = C;
      B = D;
      x = y;
      C = nA;
      D = nB;
      y = nx;
    }
    if (B === 0) {
      const t = a % b;
      a = b;
      b = t;
    } else {
      const na = BigInt(A) * a + BigInt(B) * b;
      const nb = BigInt(C) * a + BigInt(D) * b;
      a = na;
      b = nb;
    }
  }
  if (b === 0n) return a;
  // b fits a double now; one division brings a there too.
  return BigInt(smallGcd(Number(b), Number(a % b)));
}
