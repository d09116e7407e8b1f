import { classGroup } from './numbers/diophantine/quadratic-forms.js';
import { solvePell } from './numbers/diophantine/pell.js';
import { solveIntegerSystem } from './numbers/diophantine/integer-linear-system.js';
for (const D of [-100000007n, -1000000007n, -9999999999n + 0n]) {
  if ((((D % 4n) + 4n) % 4n) > 1n) continue;
  const t = Date.now(); const g = classGroup(D); console.log('classGroup', String(D), g.classNumber, g.invariants.map(String).join('x'), Date.now() - t, 'ms');
}
for (const D of [1000003n, 10n ** 12n + 39n]) { const t = Date.now(); const p = solvePell(D, 10_000_000); console.log('pell', String(D), 'period', p.period.length, 'x digits', p.plus.x.toString().length, Date.now() - t, 'ms'); }
const n = 40; let seed = 7; const r = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return BigInt(seed % 2001 - 1000); };
const A = Array.from({ length: 30 }, () => Array.from({ length: n }, r)); const b = Array.from({ length: 30 }, r);
let t = Date.now(); const s = solveIntegerSystem(A, b); console.log('linear 30x40', s.outcome, Date.now() - t, 'ms');
