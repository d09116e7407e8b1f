/**
 * An Atkin–Morain (ECPP) certificate from PARI/GP's `primecert`, read strictly: gp prints each
 * step [N, t, s, a, [x, y]] as one line of six integers (through `jv`), never as gp syntax we
 * would evaluate, and PARI's own `primecertisvalid` verdict on one more line. The only client
 * text in the script is n, re-printed by gpInteger.
 */
import { JacobianError, type EcppStep } from '@jacobian/shared';
import { checkPariIdentity, gpInteger, gpProgram, runGp, type PariTools } from '../../providers/pari.js';

/** How a gp run for one certificate is bounded. */
export interface PariEcppOptions {
  readonly deadline: number;
  readonly signal?: AbortSignal | undefined;
  readonly memoryMb?: number | undefined;
}

/** Bytes of stdout accepted: a 2000-digit certificate prints a few MB. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

function failed(message: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `PARI/GP primecert: ${message}; the certificate was discarded`);
}

/**
 * The ECPP steps PARI prints for n (n ≥ 2^64, so that PARI answers with a vector of steps),
 * or `composite` when primecert answers 0.
 *
 * @throws JacobianError PROVIDER_FAILED when gp prints anything but the expected rows, or when
 *   PARI's own primecertisvalid rejects its certificate; the run's timeout/cancel/memory codes.
 */
export async function pariEcppSteps(tools: PariTools, n: bigint, options: PariEcppOptions): Promise<{ steps: EcppStep[]; runtimeMs: number } | 'composite'> {
  if (n < 2n ** 64n) throw new JacobianError('INTERNAL', 'pariEcppSteps is for n ≥ 2^64 (PARI answers smaller n with n itself)');
  await checkPariIdentity(tools);
  const script = gpProgram(
    [`N=${gpInteger(n.toString())};`, 'c=primecert(N);'],
    [
      { name: 'cert', statements: 'if(type(c)=="t_VEC",for(i=1,#c,my(e=c[i]);jv([e[1],e[2],e[3],lift(e[4]),lift(e[5][1]),lift(e[5][2])])),print(c));' },
      { name: 'valid', statements: 'print(if(type(c)=="t_VEC",primecertisvalid(c),-1));' },
    ],
  );
  const answer = await runGp(tools.binary, script, ['cert', 'valid'], { deadline: options.deadline, signal: options.signal, memoryMb: options.memoryMb, maxOutputBytes: MAX_OUTPUT_BYTES });
  const rows = answer.sections['cert'] ?? [];
  const valid = answer.sections['valid'] ?? [];
  if (rows.length === 1 && rows[0]?.length === 1 && rows[0][0] === '0' && valid[0]?.[0] === '-1') return 'composite';
  if (valid.length !== 1 || valid[0]?.[0] !== '1') throw failed(`PARI's own primecertisvalid printed ${JSON.stringify(valid).slice(0, 100)}`);
  const steps: EcppStep[] = [];
  for (const [i, row] of rows.entries()) {
    if (row.length !== 6 || row.some((token) => token.includes('/'))) throw failed(`step ${i + 1} is not six integers`);
    const [N, t, s, a, x, y] = row as [string, string, string, string, string, string];
    steps.push([N, t, s, a, [x, y]]);
  }
  if (steps.length === 0) throw failed('no steps');
  if (steps[0]?.[0] !== n.toString()) throw failed('the first step is not about n');
  return { steps, runtimeMs: answer.runtimeMs };
}
