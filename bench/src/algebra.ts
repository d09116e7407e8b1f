/**
 * `bench algebra`: finite countermodel search of Jacobian's `universal_algebra.search.countermodel`
 * against cvc5's finite model finding, on the fixed implications between magma laws of
 * algebra-problems.ts, in one run on this machine.
 *
 * - Jacobian: `jacobian serve` started here; for each implication, ONE math.run with the range
 *   form `orders: { min: 1, max: 8 }` and budget.wall_time_ms = the implication's budget: the
 *   capability searches the orders in ascending order inside one run and stops at the first with
 *   a countermodel (our in-process search first, the SAT solver for what it does not settle).
 *   The time to a countermodel is the client's wall time of that call. With `perOrder` (the
 *   measurement before the range form existed), math.run at orders 1, 2, …, 8 in turn until
 *   WITNESS_FOUND instead, each call with what is left of the budget, timed over every call.
 * - cvc5: one SMT-LIB 2 problem per implication, `cvc5 --finite-model-find --lang=smt2`, limited
 *   to models of at most 8 elements (`--uf-ss-abort-card=9`), with `--tlimit` and a kill by PID
 *   at the same total budget. Run from bash and timed by bash (see peer.ts), from just
 *   before it starts cvc5 to cvc5's exit.
 *
 * The implications run one at a time, Jacobian then cvc5, so the two never compete for the CPU.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, constants, accessSync, fstatSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLaw, resolveSignature, type Law, type Term } from '@jacobian/shared';
import { IMPLICATIONS, LAWS, MAGMA_SIGNATURE, lawTexts, smtProblem, warmUpImplications, type Expected, type Implication } from './algebra-problems.js';
import { jacobianEnvironment, startJacobian, type BenchContext } from './context.js';
import { HttpClient, parseToolCall, toolCall, type Era } from './mcp-http.js';
import { runPeer, type PeerRun } from './peer.js';
import { childEnvironment, CpuWindow } from './proc.js';
import { median, ratio, round, table } from './stats.js';

/** Where the benchmark expects Debian's cvc5. */
export const CVC5_BINARY = '/usr/bin/cvc5';
const CAPABILITY_ID = 'universal_algebra.search.countermodel';
/** Below this much budget left, no further order is tried: the capability keeps at least 250 ms back for itself. */
const MIN_CALL_MS = 500;

export interface AlgebraOptions {
  /** Total wall-time budget per implication and system. */
  budgetMs: number;
  /** Largest order searched (Jacobian) and largest model size allowed (cvc5). */
  maxOrder: number;
  era: Era;
  /** Run only the implications whose ID contains one of these strings (all when empty). */
  only: string[];
  /** One math.run per order (1, 2, … until a witness) instead of one range call per implication. */
  perOrder?: boolean;
  /**
   * math.run calls on questions outside the problem set ({@link warmUpImplications}) before the
   * measurement, so that the server's code is compiled as in a service that has been running;
   * 0 measures the server's first calls after its start.
   */
  warmUpCalls: number;
}

/** The warm-up questions search orders 1 … this, each within this budget. */
const WARM_UP_MAX_ORDER = 4;
const WARM_UP_BUDGET_MS = 5_000;

/** One math.run call: one order. */
interface OrderAttempt {
  order: number;
  /** WITNESS_FOUND, NO_WITNESS_FOUND, INDETERMINATE, or the failure's code. */
  status: string;
  /** Client wall time of the call. */
  ms: number;
  budget_ms: number;
  /** execution.runtime_ms: the run inside the server (encoding, solver, recheck, evidence), without HTTP and the queue. */
  runtime_ms: number | null;
  /** output.solver.solve_ms (CaDiCaL alone), summed over the orders of a range call. */
  solve_ms: number | null;
  clauses: number | null;
  /** Range form: which engine settled each order, e.g. "1:TS_SEARCH 2:TS_SEARCH". */
  engines?: string;
  message?: string;
}

type JacobianVerdict =
  /** A countermodel at `order`, rechecked by the benchmark's own evaluator. */
  | 'countermodel'
  /** NO_WITNESS_FOUND at every order up to the maximum: not a proof that the implication holds. */
  | 'none_up_to_max'
  /** INDETERMINATE, or no budget left for the next order. */
  | 'budget'
  /** The capability refused an order (e.g. the encoding's clause limit) or failed. */
  | 'refused';

interface JacobianOutcome {
  verdict: JacobianVerdict;
  /** The countermodel's order, or the order at which the search stopped. */
  order: number | null;
  /** Total client wall time over every order tried. */
  ms: number;
  /** math.run calls made (one per order tried). */
  calls: number;
  /** Sum of execution.runtime_ms over those calls: the capability's own time in the server. */
  runtime_ms: number;
  /** Sum of CaDiCaL's own solve_ms over those calls (process start included). */
  solve_ms: number;
  attempts: OrderAttempt[];
  /** Whether the benchmark's evaluator confirmed the countermodel (source laws hold, target fails). */
  model_checked?: boolean;
  table?: number[][];
  message?: string;
}

type Cvc5Verdict =
  /** `sat`: a countermodel of at most maxOrder elements. */
  | 'countermodel'
  /** `unsat`: cvc5 proved the implication. */
  | 'proved'
  /** cvc5 exhausted every size up to maxOrder ("Maximum cardinality … exceeded"). */
  | 'none_up_to_max'
  /** --tlimit or the kill at the budget. */
  | 'timeout'
  | 'unknown'
  | 'error';

interface Cvc5Outcome {
  verdict: Cvc5Verdict;
  /** The model's size (from --dump-models). */
  size: number | null;
  ms: number;
  exit_code: number | null;
  signal: string | null;
  killed_at_budget: boolean;
  message?: string;
}

interface ImplicationReport {
  id: string;
  laws: string[];
  target: string;
  expected: Expected;
  jacobian: JacobianOutcome;
  cvc5: Cvc5Outcome;
  /** Outcomes at odds with each other or with `expected`. */
  disagreements: string[];
}

export interface AlgebraReport {
  benchmark: 'algebra';
  options: AlgebraOptions & {
    capability_id: string;
    symmetry_breaking: string;
    cvc5_command: string;
    cvc5_version: string;
    cadical_version: string | null;
    implications: number;
  };
  implications: ImplicationReport[];
  totals: Record<string, number | string>;
  ratios: Record<string, number>;
  targets: { name: string; target: string; measured: string; met: boolean }[];
  notes: string[];
  stopped: { name: string; graceful: boolean; code: number | null; signal: string | null }[];
}

/** Fail clearly when cvc5 is not installed; its version line otherwise. */
export function checkCvc5(): string {
  try {
    accessSync(CVC5_BINARY, constants.X_OK);
  } catch {
    throw new Error(`bench algebra needs cvc5 at ${CVC5_BINARY}: install Debian's package cvc5 (apt-get install -y cvc5)`);
  }
  const result = spawnSync(CVC5_BINARY, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const line = (result.stdout ?? '').split('\n').find((l) => l.includes('version'));
  if (result.status !== 0 || line === undefined) throw new Error(`${CVC5_BINARY} --version failed (${result.status ?? result.signal ?? '?'}): ${result.stderr}`);
  return line.trim();
}

// ---------------------------------------------------------------------------------------------
// An evaluator of our own, to recheck every countermodel Jacobian returns.

const SIGNATURE = resolveSignature(MAGMA_SIGNATURE, ['signature']);
const parsedLaw = (text: string): Law => parseLaw(text, SIGNATURE);

function evaluate(term: Term, table: readonly (readonly number[])[], assignment: ReadonlyMap<string, number>): number {
  if (term.kind === 'variable') return assignment.get(term.name) as number;
  const [left, right] = term.args as [Term, Term];
  const value = table[evaluate(left, table, assignment)]?.[evaluate(right, table, assignment)];
  if (value === undefined) throw new Error('the table is not total');
  return value;
}

/** Whether `law` holds in the magma `table` under every assignment of its variables. */
function holds(law: Law, table: readonly (readonly number[])[]): boolean {
  const n = table.length;
  const k = law.variables.length;
  const assignment = new Map<string, number>();
  for (let code = 0; code < n ** k; code++) {
    let rest = code;
    for (const variable of law.variables) {
      assignment.set(variable, rest % n);
      rest = Math.floor(rest / n);
    }
    if (evaluate(law.left, table, assignment) !== evaluate(law.right, table, assignment)) return false;
  }
  return true;
}

/** The source laws hold in `table` and the target does not. */
function isCountermodel(implication: Implication, table: unknown): table is number[][] {
  if (!Array.isArray(table) || table.length === 0) return false;
  const n = table.length;
  const rows = table as unknown[];
  if (!rows.every((row) => Array.isArray(row) && row.length === n && row.every((v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < n))) return false;
  const magma = rows as number[][];
  const { laws, target } = lawTexts(implication);
  return laws.every((law) => holds(parsedLaw(law), magma)) && !holds(parsedLaw(target), magma);
}

// ---------------------------------------------------------------------------------------------
// Jacobian.

interface RunAnswer {
  executionStatus: string | undefined;
  runtimeMs: number | undefined;
  output: Record<string, unknown> | undefined;
  failure: string | undefined;
}

async function mathRun(client: HttpClient, era: Era, id: number, payload: Record<string, unknown>, budgetMs: number): Promise<RunAnswer> {
  const prepared = toolCall(era, id, 'math.run', { capability_id: CAPABILITY_ID, payload, budget: { wall_time_ms: budgetMs } });
  let timer: NodeJS.Timeout | undefined;
  const response = await Promise.race([
    client.post(prepared),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer ${budgetMs + 30_000} ms after a call with a ${budgetMs} ms budget`)), budgetMs + 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
  const outcome = parseToolCall(response);
  const structured = outcome.result?.structuredContent;
  const execution = structured?.['execution'] as { status?: string; runtime_ms?: number } | undefined;
  const output = structured?.['output'];
  const diagnostics = structured?.['diagnostics'] as { code?: string; message?: string }[] | undefined;
  const firstDiagnostic = diagnostics?.find((d) => d.message !== undefined);
  const text = (outcome.result?.content as { type?: string; text?: string }[] | undefined)?.find((c) => c.type === 'text')?.text;
  const failure =
    execution?.status === 'COMPLETED' && typeof output === 'object' && output !== null
      ? undefined
      : (outcome.error ?? (firstDiagnostic ? `${firstDiagnostic.code ?? ''}: ${firstDiagnostic.message ?? ''}` : (text ?? JSON.stringify(structured ?? outcome.result).slice(0, 400))));
  return {
    executionStatus: execution?.status,
    runtimeMs: execution?.runtime_ms,
    output: typeof output === 'object' && output !== null ? (output as Record<string, unknown>) : undefined,
    failure: failure?.slice(0, 500),
  };
}

let callCounter = 0;

/** Orders 1, 2, … until a countermodel, within `budgetMs` in all. */
async function jacobianSearch(client: HttpClient, implication: Implication, options: AlgebraOptions): Promise<JacobianOutcome> {
  const outcome = options.perOrder === true ? await searchOrders(client, implication, options) : await searchRange(client, implication, options);
  return {
    ...outcome,
    calls: outcome.attempts.length,
    runtime_ms: outcome.attempts.reduce((sum, a) => sum + (a.runtime_ms ?? 0), 0),
    solve_ms: outcome.attempts.reduce((sum, a) => sum + (a.solve_ms ?? 0), 0),
  };
}

async function searchOrders(client: HttpClient, implication: Implication, options: AlgebraOptions): Promise<Omit<JacobianOutcome, 'calls' | 'runtime_ms' | 'solve_ms'>> {
  const { laws, target } = lawTexts(implication);
  const attempts: OrderAttempt[] = [];
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  for (let order = 1; order <= options.maxOrder; order++) {
    const left = Math.floor(options.budgetMs - elapsed());
    if (left < MIN_CALL_MS) return { verdict: 'budget', order, ms: elapsed(), attempts, message: `${left} ms left before order ${order}` };
    const t0 = performance.now();
    const answer = await mathRun(client, options.era, ++callCounter, { signature: MAGMA_SIGNATURE, laws, target, order }, left);
    const ms = performance.now() - t0;
    const solver = answer.output?.['solver'] as { solve_ms?: number } | null | undefined;
    const encoding = answer.output?.['encoding'] as { clauses?: number } | undefined;
    const status = answer.failure === undefined ? String(answer.output?.['status']) : (answer.executionStatus ?? 'FAILED');
    attempts.push({
      order,
      status,
      ms: round(ms, 1),
      budget_ms: left,
      runtime_ms: answer.runtimeMs ?? null,
      solve_ms: solver?.solve_ms ?? null,
      clauses: encoding?.clauses ?? null,
      ...(answer.failure !== undefined ? { message: answer.failure } : {}),
    });
    if (answer.failure !== undefined) {
      const timedOut = answer.executionStatus === 'TIMEOUT';
      return { verdict: timedOut ? 'budget' : 'refused', order, ms: elapsed(), attempts, message: answer.failure };
    }
    if (status === 'WITNESS_FOUND') {
      const total = elapsed();
      const model = answer.output?.['model'] as { tables?: Record<string, unknown> } | null | undefined;
      const table = model?.tables?.['*'];
      const checked = isCountermodel(implication, table);
      return { verdict: 'countermodel', order, ms: total, attempts, model_checked: checked, ...(checked ? { table } : {}) };
    }
    if (status === 'INDETERMINATE') {
      const reason = answer.output?.['reason'];
      return { verdict: 'budget', order, ms: elapsed(), attempts, message: typeof reason === 'string' ? reason : '' };
    }
    if (status !== 'NO_WITNESS_FOUND') return { verdict: 'refused', order, ms: elapsed(), attempts, message: `unexpected status ${status}` };
  }
  return { verdict: 'none_up_to_max', order: options.maxOrder, ms: elapsed(), attempts };
}

/** One math.run with the range form orders 1 … maxOrder, within the whole budget. */
async function searchRange(client: HttpClient, implication: Implication, options: AlgebraOptions): Promise<Omit<JacobianOutcome, 'calls' | 'runtime_ms' | 'solve_ms'>> {
  const { laws, target } = lawTexts(implication);
  const started = performance.now();
  const answer = await mathRun(client, options.era, ++callCounter, { signature: MAGMA_SIGNATURE, laws, target, orders: { min: 1, max: options.maxOrder } }, options.budgetMs);
  const ms = performance.now() - started;
  const records = (answer.output?.['orders'] ?? []) as { order: number; engine: string; solver: { solve_ms?: number } | null; encoding: { clauses?: number } | null }[];
  const status = answer.failure === undefined ? String(answer.output?.['status']) : (answer.executionStatus ?? 'FAILED');
  const order = typeof answer.output?.['order'] === 'number' ? answer.output['order'] : null;
  const attempt: OrderAttempt = {
    order: order ?? options.maxOrder,
    status,
    ms: round(ms, 1),
    budget_ms: options.budgetMs,
    runtime_ms: answer.runtimeMs ?? null,
    solve_ms: records.reduce((sum, r) => sum + (r.solver?.solve_ms ?? 0), 0),
    clauses: records.reduce((sum, r) => sum + (r.encoding?.clauses ?? 0), 0),
    engines: records.map((r) => `${r.order}:${r.engine}`).join(' '),
    ...(answer.failure !== undefined ? { message: answer.failure } : {}),
  };
  const attempts = [attempt];
  if (answer.failure !== undefined) return { verdict: answer.executionStatus === 'TIMEOUT' ? 'budget' : 'refused', order, ms, attempts, message: answer.failure };
  switch (status) {
    case 'WITNESS_FOUND': {
      const model = answer.output?.['model'] as { tables?: Record<string, unknown> } | null | undefined;
      const table = model?.tables?.['*'];
      const checked = isCountermodel(implication, table);
      return { verdict: 'countermodel', order, ms, attempts, model_checked: checked, ...(checked ? { table } : {}) };
    }
    case 'NO_WITNESS_FOUND':
      return { verdict: 'none_up_to_max', order: options.maxOrder, ms, attempts };
    case 'INDETERMINATE': {
      const reason = answer.output?.['reason'];
      return { verdict: 'budget', order, ms, attempts, message: typeof reason === 'string' ? reason : '' };
    }
    default:
      return { verdict: 'refused', order, ms, attempts, message: `unexpected status ${status}` };
  }
}

/** Wait until the embedded server's catalog offers the capability (its cadical provider was probed). */
async function waitForCapability(client: HttpClient, era: Era, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = parseToolCall(await client.post(toolCall(era, 1, 'math.find', { capability_id: CAPABILITY_ID })));
    if (outcome.result?.structuredContent?.['capability'] != null) return;
    if (Date.now() > deadline) throw new Error(`the server did not offer ${CAPABILITY_ID} within ${timeoutMs} ms (is cadical installed?): ${JSON.stringify(outcome).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---------------------------------------------------------------------------------------------
// cvc5.

function cvc5Arguments(options: AlgebraOptions, file: string): string[] {
  // --uf-ss-abort-card=N stops before cardinality N is tried: models of at most N − 1 elements.
  return ['--finite-model-find', `--uf-ss-abort-card=${options.maxOrder + 1}`, '--dump-models', '--lang=smt2', `--tlimit=${options.budgetMs}`, file];
}

/**
 * Run cvc5 on one problem file from a shell (see peer.ts), timed by the shell;
 * killed (SIGKILL) at the budget if --tlimit has not stopped it. Its stdout goes to a file next
 * to the problem, read once it has exited.
 */
export async function runCvc5(context: BenchContext, options: AlgebraOptions, file: string): Promise<Cvc5Outcome> {
  const outFile = `${file}.out`;
  const fd = openSync(outFile, 'w+');
  try {
    let run: PeerRun;
    try {
      run = await runPeer(context, { file: CVC5_BINARY, args: cvc5Arguments(options, file), env: childEnvironment(context.runTag, {}), stdoutFile: outFile, stderrLimit: 64 * 1024 }, options.budgetMs);
    } catch (error) {
      return { ms: 0, exit_code: null, signal: null, killed_at_budget: false, verdict: 'error', size: null, message: error instanceof Error ? error.message : String(error) };
    }
    const bytes = Buffer.alloc(fstatSync(fd).size);
    const stdout = bytes.toString('utf8', 0, bytes.length === 0 ? 0 : readSync(fd, bytes, 0, bytes.length, 0));
    const { stderr, code, signal, ms, killedAtBudget: killed } = run;
    const first = stdout.split('\n')[0]?.trim() ?? '';
    const size = /; cardinality of U is (\d+)/.exec(stdout);
    const base = { ms, exit_code: code, signal, killed_at_budget: killed };
    if (first === 'sat') return { ...base, verdict: 'countermodel', size: size ? Number(size[1]) : null };
    if (first === 'unsat') return { ...base, verdict: 'proved', size: null };
    if (/Maximum cardinality \(\d+\)\s*for finite model finding exceeded/.test(stdout + stderr)) return { ...base, verdict: 'none_up_to_max', size: null };
    if (killed || /interrupted by timeout/.test(stderr)) return { ...base, verdict: 'timeout', size: null };
    if (first === 'unknown') return { ...base, verdict: 'unknown', size: null };
    return { ...base, verdict: 'error', size: null, message: `${stdout.slice(0, 300)} ${stderr.slice(0, 300)}`.trim() };
  } finally {
    closeSync(fd);
    rmSync(outFile, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

function disagreements(implication: Implication, jacobian: JacobianOutcome, cvc5: Cvc5Outcome, maxOrder: number): string[] {
  const found: string[] = [];
  const expected = implication.expected;
  if (jacobian.verdict === 'countermodel' && jacobian.model_checked !== true) found.push('Jacobian returned a model that our evaluator rejects');
  if (jacobian.verdict === 'countermodel' && cvc5.verdict === 'proved') found.push('Jacobian found a countermodel but cvc5 answered unsat');
  if (jacobian.verdict === 'countermodel' && cvc5.verdict === 'none_up_to_max') found.push(`Jacobian found a countermodel but cvc5 found none up to ${maxOrder}`);
  if (cvc5.verdict === 'countermodel' && jacobian.verdict === 'none_up_to_max') found.push(`cvc5 found a countermodel but Jacobian found none up to ${maxOrder}`);
  if (expected.kind === 'countermodel') {
    if (jacobian.verdict === 'countermodel' && jacobian.order !== expected.smallest_order) found.push(`Jacobian's first countermodel has order ${jacobian.order}, expected ${expected.smallest_order}`);
    if (cvc5.verdict === 'proved') found.push('cvc5 proved an implication that has a countermodel');
  } else {
    if (jacobian.verdict === 'countermodel') found.push(`Jacobian found a countermodel of an implication expected ${expected.kind === 'true' ? 'true' : 'to have none up to 8'}`);
    if (cvc5.verdict === 'countermodel') found.push(`cvc5 found a countermodel of an implication expected ${expected.kind === 'true' ? 'true' : 'to have none up to 8'}`);
    if (expected.kind === 'beyond' && cvc5.verdict === 'proved') found.push('cvc5 proved a false implication');
  }
  return found;
}

export async function runAlgebraBench(context: BenchContext, options: AlgebraOptions): Promise<AlgebraReport> {
  const cvc5Version = checkCvc5();
  const smtDir = join(context.dir, 'smt');
  mkdirSync(smtDir, { recursive: true });
  const selected = IMPLICATIONS.filter((i) => options.only.length === 0 || options.only.some((part) => i.id.includes(part)));
  if (selected.length === 0) throw new Error(`--algebra-only ${options.only.join(',')} matches no implication`);
  const files = new Map<string, string>();
  for (const implication of selected) {
    const file = join(smtDir, `${implication.id.replace(/[^A-Za-z0-9_-]+/g, '_')}.smt2`);
    writeFileSync(file, smtProblem(implication));
    files.set(implication.id, file);
  }

  context.log('algebra: starting jacobian serve');
  const embedded = await startJacobian(context, 'embedded', ['serve', '--host', '127.0.0.1', '--port', '0'], { env: jacobianEnvironment(context, 'embedded', {}) });
  if (embedded.url === undefined) throw new Error('jacobian serve did not log its URL');
  const client = new HttpClient(embedded.url, 1);
  const reports: ImplicationReport[] = [];
  const warmUp = { calls: 0, seconds: 0, statuses: {} as Record<string, number> };
  let cadicalVersion: string | null;
  let load: ReturnType<CpuWindow['lap']>;
  try {
    await waitForCapability(client, options.era);

    // Warm-up of both sides on a question outside the set (Jacobian's kernel pool starts lazily).
    const warm: Implication = { id: 'warm-up', laws: ['comm'], target: 'idem', expected: { kind: 'countermodel', smallest_order: 2, why: '(Z2, +)' } };
    const warmFile = join(smtDir, 'warm-up.smt2');
    writeFileSync(warmFile, smtProblem(warm));
    for (let i = 0; i < 2; i++) {
      const outcome = await jacobianSearch(client, warm, options);
      if (outcome.verdict !== 'countermodel') throw new Error(`the warm-up search did not find the order-2 countermodel: ${JSON.stringify(outcome).slice(0, 800)}`);
      await runCvc5(context, options, warmFile);
    }
    // An order without a countermodel (commutative magmas are flexible) makes the SAT solver run, so its answer names the solver.
    const versionAnswer = await mathRun(client, options.era, ++callCounter, { signature: MAGMA_SIGNATURE, laws: [LAWS.comm], target: LAWS.flexible, order: 3 }, 10_000);
    const solver = versionAnswer.output?.['solver'] as { name?: string; version?: string } | null | undefined;
    cadicalVersion = solver?.version === undefined ? null : `${solver.name ?? '?'} ${solver.version}`;

    // A service answers many questions: Node compiles its hot paths only after they have run
    // many times, while cvc5 is compiled ahead of time and starts anew for every question.
    const warmStarted = performance.now();
    for (const question of warmUpImplications(options.warmUpCalls)) {
      const { laws, target } = lawTexts(question);
      const answer = await mathRun(client, options.era, ++callCounter, { signature: MAGMA_SIGNATURE, laws, target, orders: { min: 1, max: WARM_UP_MAX_ORDER } }, WARM_UP_BUDGET_MS);
      if (answer.failure !== undefined && answer.executionStatus !== 'TIMEOUT') throw new Error(`warm-up question ${question.id} failed: ${answer.executionStatus ?? 'FAILED'}: ${answer.failure}`);
      const status = answer.failure === undefined ? String(answer.output?.['status']) : 'TIMEOUT';
      warmUp.statuses[status] = (warmUp.statuses[status] ?? 0) + 1;
      warmUp.calls++;
    }
    warmUp.seconds = round((performance.now() - warmStarted) / 1000, 1);
    if (warmUp.calls > 0) context.log(`algebra: warm-up: ${warmUp.calls} questions outside the set in ${warmUp.seconds} s (${JSON.stringify(warmUp.statuses)})`);

    await context.waitQuiet('algebra');
    // One window over the whole loop: /proc times tick at 10 ms, too coarse for one implication.
    const cpu = new CpuWindow(() => []);
    for (const [index, implication] of selected.entries()) {
      const jacobian = await jacobianSearch(client, implication, options);
      const cvc5 = await runCvc5(context, options, files.get(implication.id) as string);
      const { laws, target } = lawTexts(implication);
      reports.push({
        id: implication.id,
        laws,
        target,
        expected: implication.expected,
        jacobian: { ...jacobian, ms: round(jacobian.ms, 1) },
        cvc5: { ...cvc5, ms: round(cvc5.ms, 1) },
        disagreements: disagreements(implication, jacobian, cvc5, options.maxOrder),
      });
      context.log(
        `algebra: ${index + 1}/${selected.length} ${implication.id}: jacobian ${jacobian.verdict}${jacobian.order !== null ? ` @${jacobian.order}` : ''} ${round(jacobian.ms, 0)} ms; cvc5 ${cvc5.verdict}${cvc5.size !== null ? ` @${cvc5.size}` : ''} ${round(cvc5.ms, 0)} ms`,
      );
    }
    load = cpu.lap();
  } finally {
    client.close();
  }

  const both = reports.filter((r) => r.jacobian.verdict === 'countermodel' && r.cvc5.verdict === 'countermodel');
  const jacobianSettled = reports.filter((r) => r.jacobian.verdict === 'countermodel').length;
  const cvc5Settled = reports.filter((r) => r.cvc5.verdict === 'countermodel').length;
  const jacobianMedian = median(both.map((r) => r.jacobian.ms));
  const cvc5Median = median(both.map((r) => r.cvc5.ms));
  const count = (side: 'jacobian' | 'cvc5', verdict: string): number => reports.filter((r) => r[side].verdict === verdict).length;
  const totals: Record<string, number | string> = {
    implications: reports.length,
    expected_countermodel_up_to_8: selected.filter((i) => i.expected.kind === 'countermodel').length,
    expected_true: selected.filter((i) => i.expected.kind === 'true').length,
    expected_countermodel_beyond_8: selected.filter((i) => i.expected.kind === 'beyond').length,
    jacobian_countermodels: jacobianSettled,
    jacobian_none_up_to_max: count('jacobian', 'none_up_to_max'),
    jacobian_budget_ended: count('jacobian', 'budget'),
    jacobian_refused: count('jacobian', 'refused'),
    cvc5_countermodels: cvc5Settled,
    cvc5_proved: count('cvc5', 'proved'),
    cvc5_none_up_to_max: count('cvc5', 'none_up_to_max'),
    cvc5_timeouts: count('cvc5', 'timeout'),
    cvc5_unknown_or_error: count('cvc5', 'unknown') + count('cvc5', 'error'),
    both_countermodels: both.length,
    jacobian_median_ms_both_settled: round(jacobianMedian, 1),
    cvc5_median_ms_both_settled: round(cvc5Median, 1),
    jacobian_total_ms_both_settled: round(both.reduce((s, r) => s + r.jacobian.ms, 0), 0),
    cvc5_total_ms_both_settled: round(both.reduce((s, r) => s + r.cvc5.ms, 0), 0),
    jacobian_total_ms_all: round(reports.reduce((s, r) => s + r.jacobian.ms, 0), 0),
    jacobian_calls_both_settled: both.reduce((s, r) => s + r.jacobian.calls, 0),
    jacobian_solve_ms_both_settled: both.reduce((s, r) => s + r.jacobian.solve_ms, 0),
    jacobian_mode: options.perOrder === true ? 'one call per order' : `one call per implication (orders 1…${options.maxOrder})`,
    jacobian_orders_by_engine: Object.entries(
      reports
        .flatMap((r) => r.jacobian.attempts.flatMap((a) => (a.engines ?? '').split(' ').filter((e) => e !== '')))
        .reduce<Record<string, number>>((counts, entry) => {
          const engine = entry.split(':')[1] ?? '?';
          counts[engine] = (counts[engine] ?? 0) + 1;
          return counts;
        }, {}),
    )
      .map(([engine, count]) => `${engine} ${count}`)
      .join(', '),
    jacobian_median_ms_per_call_both_settled: round(median(both.map((r) => r.jacobian.ms / Math.max(1, r.jacobian.calls))), 1),
    jacobian_runtime_ms_both_settled: both.reduce((s, r) => s + r.jacobian.runtime_ms, 0),
    warm_up_calls: warmUp.calls,
    warm_up_seconds: warmUp.seconds,
    warm_up_outcomes: Object.entries(warmUp.statuses)
      .map(([status, n]) => `${status} ${n}`)
      .join(', '),
    measured_seconds: load.seconds,
    bench_cores: load.bench_cores,
    other_cores: load.other_cores,
    cvc5_total_ms_all: round(reports.reduce((s, r) => s + r.cvc5.ms, 0), 0),
    disagreements: reports.reduce((n, r) => n + r.disagreements.length, 0),
  };
  const medianRatio = ratio(jacobianMedian, cvc5Median);
  const ratios = {
    jacobian_median_over_cvc5_median: medianRatio,
    median_of_per_implication_ratios: round(median(both.map((r) => r.jacobian.ms / Math.max(r.cvc5.ms, 1e-3))), 3),
    jacobian_countermodels_over_cvc5_countermodels: ratio(jacobianSettled, cvc5Settled),
  };
  const jacobianEveryOrder = jacobianSettled + count('jacobian', 'none_up_to_max');
  const cvc5EveryOrder = cvc5Settled + count('cvc5', 'proved') + count('cvc5', 'none_up_to_max');
  const targets = [
    {
      name: `implications settled by a countermodel of order ≤ ${options.maxOrder}: Jacobian vs cvc5`,
      target: 'Jacobian ≥ cvc5',
      measured: `${jacobianSettled} vs ${cvc5Settled}`,
      met: jacobianSettled >= cvc5Settled,
    },
    {
      name: `implications settled at every order ≤ ${options.maxOrder} (a countermodel, none at any order up to ${options.maxOrder}, or cvc5's proof): Jacobian vs cvc5`,
      target: 'Jacobian ≥ cvc5',
      measured: `${jacobianEveryOrder} vs ${cvc5EveryOrder}`,
      met: jacobianEveryOrder >= cvc5EveryOrder,
    },
    {
      name: 'median time to a countermodel over the implications both settled: Jacobian / cvc5',
      target: '≤ 0.5',
      measured: `${round(jacobianMedian, 1)} / ${round(cvc5Median, 1)} ms = ${medianRatio}`,
      met: Number.isFinite(medianRatio) && medianRatio <= 0.5,
    },
  ];
  const notes = [
    `Jacobian's "none_up_to_max" means NO_WITNESS_FOUND at every order 1…${options.maxOrder}: no countermodel up to ${options.maxOrder}, not a proof that the implication holds.`,
    `cvc5's "proved" (unsat) proves the implication for all magmas; the countermodel capability cannot do that. The first target counts countermodels only; the second counts an implication as settled at orders up to ${options.maxOrder} when each side has answered every such order: a countermodel, Jacobian's none up to ${options.maxOrder} (each order refuted by CaDiCaL or exhausted by its own search), cvc5's proof, or cvc5's none up to ${options.maxOrder}.`,
    options.perOrder === true
      ? "Jacobian's columns: ms is the client's wall time over all calls (one per order); run ms sums execution.runtime_ms (the capability inside the server); solve ms sums the SAT solver's solve_ms (its process included). The rest of ms is MCP over HTTP and the queue."
      : `Jacobian's columns: ms is the client's wall time of the one range call (orders 1…${options.maxOrder}); run ms is execution.runtime_ms (the capability inside the server: our in-process search, the SAT solver for orders it does not settle, the recheck, the evidence kept); solve ms sums the SAT solver's solve_ms over the orders it ran on. The rest of ms is MCP over HTTP and the queue.`,
    warmUp.calls > 0
      ? `Before the measurement the server answered ${warmUp.calls} other questions (single-law implications outside the set, orders 1…${WARM_UP_MAX_ORDER}), as a service that has been running would have; none of the measured requests, nor any other with the same laws and target, had been asked. cvc5 is compiled ahead of time and started anew for each question, so it has no such state (it ran twice on a warm-up problem first, for the page cache).`
      : 'The server was measured on its first questions after start (no warm-up beyond two calls): its JavaScript was still being compiled during the measured calls.',
    `cvc5 ran with --uf-ss-abort-card=${options.maxOrder + 1}, so it only considers models of at most ${options.maxOrder} elements; "none_up_to_max" is its "Maximum cardinality exceeded" answer.`,
  ];
  if (totals['disagreements'] !== 0) context.log(`algebra: WARNING: ${totals['disagreements']} disagreements; see the table`);
  return {
    benchmark: 'algebra',
    options: {
      ...options,
      capability_id: CAPABILITY_ID,
      symmetry_breaking: 'LEAST_NUMBER (the capability default)',
      cvc5_command: `${CVC5_BINARY} ${cvc5Arguments(options, 'FILE.smt2').join(' ')}`,
      cvc5_version: cvc5Version,
      cadical_version: cadicalVersion,
      implications: selected.length,
    },
    implications: reports,
    totals,
    ratios,
    targets,
    notes,
    stopped: [],
  };
}

function describeJacobian(outcome: JacobianOutcome, maxOrder: number): string {
  switch (outcome.verdict) {
    case 'countermodel':
      return `countermodel, order ${outcome.order}${outcome.model_checked === true ? '' : ' (REJECTED by our check)'}`;
    case 'none_up_to_max':
      return `none up to ${maxOrder}`;
    case 'budget':
      return `budget ended at order ${outcome.order}`;
    case 'refused':
      return `refused at order ${outcome.order}`;
  }
}

function describeCvc5(outcome: Cvc5Outcome, maxOrder: number): string {
  switch (outcome.verdict) {
    case 'countermodel':
      return `countermodel, size ${outcome.size ?? '?'}`;
    case 'proved':
      return 'proved (unsat)';
    case 'none_up_to_max':
      return `none up to ${maxOrder}`;
    case 'timeout':
    case 'unknown':
    case 'error':
      return outcome.verdict;
  }
}

function describeExpected(expected: Expected): string {
  return expected.kind === 'countermodel' ? `countermodel, order ${expected.smallest_order}` : expected.kind === 'true' ? 'true' : `smallest countermodel ${expected.smallest_order}`;
}

/** How many orders each engine settled in one implication, e.g. "TS_SEARCH 3, CADICAL 1". */
function engineCounts(outcome: JacobianOutcome): string {
  const counts = new Map<string, number>();
  for (const attempt of outcome.attempts) {
    for (const entry of (attempt.engines ?? '').split(' ').filter((e) => e !== '')) {
      const engine = entry.split(':')[1] ?? '?';
      counts.set(engine, (counts.get(engine) ?? 0) + 1);
    }
  }
  return [...counts].map(([engine, count]) => `${engine} ${count}`).join(', ');
}

export function printAlgebraTables(report: AlgebraReport): string {
  const max = report.options.maxOrder;
  const rows = report.implications.map((r) => [
    r.id,
    describeExpected(r.expected),
    describeJacobian(r.jacobian, max),
    r.jacobian.ms,
    r.jacobian.calls,
    r.jacobian.runtime_ms,
    r.jacobian.solve_ms,
    engineCounts(r.jacobian),
    describeCvc5(r.cvc5, max),
    r.cvc5.ms,
    r.jacobian.verdict === 'countermodel' && r.cvc5.verdict === 'countermodel' ? round(r.jacobian.ms / Math.max(r.cvc5.ms, 1e-3), 2) : '',
    r.disagreements.length > 0 ? r.disagreements.join('; ') : '',
  ]);
  const main = table(['implication', 'expected', 'Jacobian', 'ms', 'calls', 'run ms', 'solve ms', 'orders by engine', 'cvc5', 'ms', 'J/cvc5', 'disagreement'], rows);
  const totals = table(['total', 'value'], Object.entries(report.totals).map(([name, value]) => [name, value]));
  const ratios = table(['ratio', 'value'], Object.entries(report.ratios).map(([name, value]) => [name, value]));
  const targets = table(['target', 'wanted', 'measured', 'met'], report.targets.map((t) => [t.name, t.target, t.measured, t.met ? 'yes' : 'NO']));
  return [main, '', totals, '', ratios, '', targets, '', ...report.notes.map((n) => `- ${n}`)].join('\n');
}
