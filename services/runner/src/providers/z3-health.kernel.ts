/**
 * The z3-solver health check, as a kernel for the isolation pool (and as a plain function for
 * in-process probing): two tiny problems with known answers.
 */
import { withZ3Context } from './z3-instance.js';

// A health check killed at its wall time makes its module warm in later children (see the process pool).
export { warmUp } from './z3-instance.js';

/**
 * Solve two tiny problems with known answers: x + y = 3, x > y > 0 over integers must be sat
 * with exactly x = 2, y = 1; tightening to y > 1 must be unsat.
 */
export async function z3HealthCheck(): Promise<void> {
  // The shared per-process Context for this role: a fresh Context per probe would never be
  // reclaimed (see withZ3Context).
  await withZ3Context('health', async (ctx) => {
    const x = ctx.Int.const('x');
    const y = ctx.Int.const('y');
    const solver = new ctx.Solver();
    try {
      solver.set('timeout', 10_000);
      solver.add(x.add(y).eq(3), x.gt(y), y.gt(0));
      const satStatus = await solver.check();
      if (satStatus !== 'sat') throw new Error(`expected sat, got ${satStatus}`);
      const model = solver.model();
      const xExpr = model.eval(x, true);
      const yExpr = model.eval(y, true);
      const xValue = ctx.isIntVal(xExpr) ? xExpr.value() : undefined;
      const yValue = ctx.isIntVal(yExpr) ? yExpr.value() : undefined;
      model.release();
      if (xValue !== 2n || yValue !== 1n) {
        throw new Error(`expected x=2, y=1, got x=${String(xValue)}, y=${String(yValue)}`);
      }
      solver.add(y.gt(1));
      const unsatStatus = await solver.check();
      if (unsatStatus !== 'unsat') throw new Error(`expected unsat, got ${unsatStatus}`);
    } finally {
      solver.release();
    }
  });
}

/** Kernel entry: throws if z3 misbehaves, else reports healthy. */
export async function z3HealthKernel(): Promise<{ healthy: true }> {
  await z3HealthCheck();
  return { healthy: true };
}
