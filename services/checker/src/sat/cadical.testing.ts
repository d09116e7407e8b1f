/**
 * Test support: CaDiCaL run directly, to get real proofs for our checkers to check. The checker
 * never imports the runner's provider, so this is its own small spawn. Tests that use it fail
 * (never skip) when cadical is not installed, saying how to install it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serializeDimacs, type Cnf } from './sat-domain.js';

export const CADICAL_BINARY = '/usr/bin/cadical';

/** What cadical said about a CNF: the status, the text DRAT proof (UNSAT), the model (SAT, literal per variable). */
export interface CadicalAnswer {
  status: 'SATISFIABLE' | 'UNSATISFIABLE';
  /** The proof file's bytes: text DRAT, or binary DRAT when asked for. */
  proof: Buffer | null;
  model: number[] | null;
  solveMs: number;
}

/** Solve with cadical, keeping a text DRAT proof. Throws when cadical is missing or answers neither SAT nor UNSAT. */
export function solveWithCadical(cnf: Cnf, options: { timeoutMs?: number; binaryProof?: boolean } = {}): CadicalAnswer {
  if (!existsSync(CADICAL_BINARY)) throw new Error(`${CADICAL_BINARY} is missing: install the Debian package cadical (scripts/install-system-deps.sh)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'jacobian-sat-test-'));
  try {
    const cnfPath = path.join(dir, 'f.cnf');
    const proofPath = path.join(dir, 'f.drat');
    writeFileSync(cnfPath, serializeDimacs(cnf));
    const started = performance.now();
    const run = spawnSync(CADICAL_BINARY, ['-q', ...(options.binaryProof === true ? [] : ['--no-binary']), cnfPath, proofPath], { encoding: 'utf8', timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 << 20 });
    const solveMs = performance.now() - started;
    if (run.status === 20) return { status: 'UNSATISFIABLE', proof: readFileSync(proofPath), model: null, solveMs };
    if (run.status === 10) {
      const model = run.stdout
        .split('\n')
        .filter((line) => line.startsWith('v'))
        .flatMap((line) => line.slice(1).trim().split(/\s+/).map(Number))
        .filter((literal) => literal !== 0);
      return { status: 'SATISFIABLE', proof: null, model, solveMs };
    }
    throw new Error(`cadical exited with ${String(run.status)} (${run.signal ?? 'no signal'}): ${run.stderr.slice(0, 300)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
