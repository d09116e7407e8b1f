/**
 * The countermodel search's SAT step with z3-solver (WASM), for machines without CaDiCaL: the
 * same DIMACS file the encoding kernel wrote is read back, handed to Z3 as SMT-LIB Boolean
 * clauses in bounded chunks, and solved within the caller's stop time. Z3 writes no DRAT proof,
 * so an UNSATISFIABLE answer here carries none; the capability says so in its result.
 *
 * Runs in a pool child (z3's WASM module and worker threads stay out of the serving process),
 * sharing the process-wide z3 instance of the graph kernels (providers/z3-instance.ts).
 */
import { readFile } from 'node:fs/promises';
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { withZ3Context } from '../providers/z3-instance.js';

/** Z3's start-up, done by a pool child before it says ready once a run of this module was killed (see the process pool's warm modules). */
export { warmUp } from '../providers/z3-instance.js';

/** Input of {@link solveCnfWithZ3Kernel}. */
export interface Z3CnfInput {
  /** The DIMACS file the encoding kernel wrote. */
  cnf_path: string;
  /** Variables 1 … decode_variables are reported when satisfiable (the tables and the witness). */
  decode_variables: number;
  /** Epoch ms at which Z3 is interrupted and the answer is UNKNOWN. */
  stop_at: number;
}

/** Output of {@link solveCnfWithZ3Kernel}. */
export interface Z3CnfOutput {
  result: 'SATISFIABLE' | 'UNSATISFIABLE' | 'UNKNOWN';
  /** SATISFIABLE: the true variables among 1 … decode_variables, ascending. */
  true_variables: number[] | null;
  stopped_by: 'DEADLINE' | null;
  solve_ms: number;
}

/** SMT-LIB text handed to one fromString call (the binding copies it onto a bounded C stack). */
const MAX_CHUNK_CHARS = 256 * 1024;
/** Grace beyond the stop time before we interrupt Z3 ourselves (its own timeout can lag). */
const INTERRUPT_GRACE_MS = 50;

const literal = (token: string): string => (token.startsWith('-') ? `(not b${token.slice(1)})` : `b${token}`);

/** The DIMACS clauses as SMT-LIB lines: declarations first, then one assert per clause. */
function* smtLines(dimacs: string): Generator<string> {
  const lines = dimacs.split('\n');
  const header = lines.find((line) => line.startsWith('p cnf'));
  const match = header === undefined ? null : /^p cnf (\d+) (\d+)\s*$/.exec(header);
  if (match === null) throw new JacobianError('PROVIDER_FAILED', 'the CNF file has no "p cnf" header');
  const variables = Number(match[1]);
  for (let v = 1; v <= variables; v++) yield `(declare-const b${v} Bool)`;
  for (const line of lines) {
    if (line === '' || line.startsWith('p') || line.startsWith('c')) continue;
    const tokens = line.trim().split(/\s+/);
    if (tokens.at(-1) !== '0') throw new JacobianError('PROVIDER_FAILED', 'a CNF clause does not end with 0');
    tokens.pop();
    yield tokens.length === 0 ? '(assert false)' : tokens.length === 1 ? `(assert ${literal(tokens[0] as string)})` : `(assert (or ${tokens.map(literal).join(' ')}))`;
  }
}

/** Solve the CNF with Z3: SATISFIABLE with the decoded variables, UNSATISFIABLE, or UNKNOWN at the stop time. */
export async function solveCnfWithZ3Kernel(input: Z3CnfInput, ctx: KernelContext): Promise<Z3CnfOutput> {
  const started = Date.now();
  const stopAt = Math.min(input.stop_at, ctx.deadline);
  const dimacs = await readFile(input.cnf_path, 'utf8');
  return withZ3Context('countermodel', async (z3) => {
    const solver = new z3.Solver();
    const stopped = (): boolean => ctx.signal.aborted || Date.now() >= stopAt;
    const unknown = (): Z3CnfOutput => ({ result: 'UNKNOWN', true_variables: null, stopped_by: 'DEADLINE', solve_ms: Date.now() - started });
    try {
      let chunk: string[] = [];
      let size = 0;
      const flush = async (): Promise<boolean> => {
        if (chunk.length > 0) solver.fromString(chunk.join('\n'));
        chunk = [];
        size = 0;
        // Parsing is synchronous: between chunks, let an abort be noticed.
        await new Promise<void>((resolve) => setImmediate(resolve));
        return !stopped();
      };
      for (const line of smtLines(dimacs)) {
        if (size + line.length + 1 > MAX_CHUNK_CHARS && !(await flush())) return unknown();
        chunk.push(line);
        size += line.length + 1;
      }
      if (!(await flush())) return unknown();
      const remaining = Math.max(1, stopAt - Date.now());
      solver.set('timeout', remaining);
      const interrupt = (): void => {
        z3.interrupt();
      };
      ctx.signal.addEventListener('abort', interrupt);
      const backstop = setTimeout(interrupt, remaining + INTERRUPT_GRACE_MS);
      let status: 'sat' | 'unsat' | 'unknown';
      try {
        status = await solver.check();
      } finally {
        clearTimeout(backstop);
        ctx.signal.removeEventListener('abort', interrupt);
      }
      if (status === 'unknown') return unknown();
      if (status === 'unsat') return { result: 'UNSATISFIABLE', true_variables: null, stopped_by: null, solve_ms: Date.now() - started };
      const model = solver.model();
      try {
        const trueVariables: number[] = [];
        for (let v = 1; v <= input.decode_variables; v++) {
          if (z3.isTrue(model.eval(z3.Bool.const(`b${v}`), true))) trueVariables.push(v);
        }
        return { result: 'SATISFIABLE', true_variables: trueVariables, stopped_by: null, solve_ms: Date.now() - started };
      } finally {
        model.release();
      }
    } finally {
      solver.release();
    }
  });
}
