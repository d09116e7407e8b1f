/**
 * Jacobian benchmarks: `npm run bench -- [queue|find|algebra|all] [options]` (see HELP). Each
 * benchmark prints a table and a JSON summary with its ratios against a peer measured in the
 * same run. Every process started is stopped by its PID at the end, even on error or Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkCvc5, printAlgebraTables, runAlgebraBench } from './algebra.js';
import type { BenchContext } from './context.js';
import { printFindTables, runFindBench } from './find.js';
import { printFindLoadTables, runFindLoadBench } from './find-load.js';
import { checkGeng, printGraphsTables, runGraphsBench } from './graphs.js';
import type { Era } from './mcp-http.js';
import { stopPeerShells } from './peer.js';
import { CpuWindow, machineInfo, ProcessGroup } from './proc.js';
import { BENCH_CAPABILITIES, printQueueTables, runQueueBench, type BenchCapability } from './queue.js';
import { checkGp, printLinalgTables, runLinalgBench } from './linalg.js';
import { checkGlpsol, printLpTables, runLpBench } from './lp.js';
import { printSequencesTables, runSequencesBench } from './sequences.js';
import { printNumbersTables, runNumbersBench } from './numbers.js';
import { checkSingular, printPolynomialTables, runPolynomialBench } from './polynomial.js';
import { checkCadical, printSatTables, runSatBench } from './sat.js';
import { printStartupTables, runStartupBench } from './startup.js';

const HELP = `Usage: npm run bench -- [queue|find|find-load|startup|algebra|graphs|sat|polynomial|linalg|lp|numbers|sequences|all ...] [options]   (default: all = queue, find)

queue   math.run of graph.construct.explicit over MCP HTTP: embedded serve vs cluster
        (api + 2 runners + checker, Redis, s3rver) vs a bare BullMQ add→process→complete loop
find    math.find requests/s (server on core 0, load generator on core 1) vs a minimal
        stateless MCP server on the same SDK, then a long run sampling the server's RSS
startup time from spawning \`jacobian stdio\` to its first math.find answer (a new data dir: every
        provider health check runs; a data dir from an earlier start: checks remembered) vs the
        smallest stdio server on the same SDK, interleaved rounds, ratios per round. Not part of all.
find-load math.find latency (p50/p99) on an idle embedded serve vs the same server while 20 large
        inline-graph math.run calls (K256, ~300 KB each) and one huge SAT model (sat.model.find on
        p cnf 4000000 2, budget 15 s) are in flight; and when the SAT answer arrived against its
        budget. Not part of all.
algebra universal_algebra.search.countermodel (one call searching orders 1…8, over MCP HTTP to an
        embedded serve) vs cvc5 --finite-model-find on a fixed set of implications between magma laws;
        needs /usr/bin/cvc5 (Debian package cvc5). Not part of all.
graphs  graph.enumerate.nonisomorphic (geng provider and TypeScript provider, in process) vs
        nauty-geng run directly on the same work, n = 9 and 10, with and without filters; every
        count checked against geng and OEIS; and n = 10 counted as 8 shard jobs on a cluster with 2
        runners vs 1 (about 3 minutes in all). Needs /usr/bin/nauty-geng (Debian package nauty).
        Not part of all. Several benchmarks run in one invocation: graphs algebra.
sat     CaDiCaL solving pigeonhole and random 3-SAT instances with a DRAT proof vs our DRAT
        checker checking that proof (time ratio per instance); needs /usr/bin/cadical
        (Debian package cadical). Not part of all.
polynomial reduced Groebner bases of cyclic-5/6 and katsura-5/6 (grevlex over Q): our TypeScript
        engine vs Singular run directly, the Singular provider vs Singular direct, and sympy
        (python3-sympy) as a second reference. Needs /usr/bin/Singular. Not part of all.
linalg  determinant, rank, HNF, SNF and charpoly of random integer matrices (n = 20, 50, 100;
        entries ±2^10 and ±2^64): our TypeScript engine vs PARI/GP run directly, the PARI provider
        vs PARI direct, and sympy (timed out per call). Needs /usr/bin/gp. Not part of all.
lp      exact LP: our lp.solve engine (HiGHS start + exact simplex), the pure exact simplex, HiGHS
        alone and glpsol --exact (and glpsol's float simplex) on two families of dense random LPs 50×50 and
        200×200, transportation, assignment and set cover relaxations; the checker's certificate
        check against our solve. Needs /usr/bin/glpsol (glpk-utils). Not part of all.
sequences recurrence guessing: our Berlekamp-Massey (sequence.recurrence.guess's engine) vs
        sympy's find_linear_recurrence on seeded C-finite sequences of order 2 and 10 with 100,
        400 and 1,000 terms; answers compared. Needs python3 with sympy for the ratio. Not part of all.
numbers integer factorization: our TypeScript engine (rho, ECM) against PARI/GP factor on semiprimes of 20,
        30 and 40 digits; the PARI provider against gp started by bash; primality certificate production
        against checking. Needs gp (pari-gp). Not part of all.

Options:
  --concurrency N        queue: concurrent requests and worker slots of each system (default 8)
  --capability C         queue: triangles (graph.triangle_count.compute, answered inline; default)
                         or construct (graph.construct.explicit, stores an artifact: two S3 PUTs)
  --sequential N         queue: measured sequential requests per system (default 500)
  --warmup N             queue: warm-up requests before each phase (default 50)
  --duration S           queue: seconds of each throughput phase (default 10)
  --find-concurrency N   find: load generator connections (default 8)
  --find-duration S      find: seconds of each rate measurement (default 10)
  --find-warmup N        find: warm-up requests before each rate measurement (default 2000)
  --rounds N             find: interleaved rate measurements per server (default 2)
  --requests N           find: requests of the long run (default 1000000; 0 skips it)
  --max-long-run-min M   find: stop the long run after M minutes even if fewer requests were sent
                         (default 0: no bound); the report says how many were sent
  --sample-ms MS         find: RSS sampling interval of the long run (default 1000)
  --no-calibrate         find: skip the load generator's ceiling against a bare node:http server
  --algebra-budget S     algebra: total seconds per implication and system (default 30); Jacobian
                         passes what is left of it as budget.wall_time_ms of each order's call,
                         cvc5 gets it as --tlimit and is killed by PID when it runs out
  --algebra-max-order N  algebra: largest order searched by Jacobian and model size allowed to cvc5
                         (default 8)
  --algebra-only A,B     algebra: run only the implications whose ID contains A or B (IDs: see
                         bench/src/algebra-problems.ts, e.g. central, group4=>comm)
  --algebra-warmup N     algebra: questions outside the set the server answers before the
                         measurement (default 300; 0: measure its first calls after start)
  --graphs-orders N,M    graphs: orders enumerated (default 9,10; each 1…10)
  --graphs-cases A,B     graphs: cases run (default all,connected,triangle-free,all-count,
                         sharded-2-runners; also connected-mindeg2)
  --graphs-repeat N      graphs: measured rounds per case, medians reported (default 1)
  --graphs-shard-mib M   graphs: listings above M MiB of graph6 are split into that many-MiB shards
                         for both geng and the capability (default 12; one call returns ≤ 16 MiB)
  --startup-rounds N     startup: measured rounds, each starting every system once (default 5)
  --sat-reps N           sat: repetitions per instance, medians reported (default 3)
  --sat-only A,B         sat: run only the instances whose name contains A or B (e.g. php, rand3-250)
  --polynomial-reps N    polynomial: repetitions per system, medians reported (default 3)
  --polynomial-only A,B  polynomial: run only the systems whose name contains A or B (e.g. cyclic-6)
  --linalg-reps N        linalg: repetitions per case, medians reported (default 1)
  --linalg-sizes N,M     linalg: matrix orders (default 20,50,100)
  --linalg-sympy-timeout S  linalg: seconds before a sympy call is killed (default 20)
  --linalg-ts-timeout S  linalg: seconds before our engine is stopped by its checkpoint (default 120)
  --numbers-reps N       numbers: repetitions per case, medians reported (default 3)
  --lp-reps N            lp: repetitions per case, medians reported (default 3)
  --lp-only A,B          lp: run only the cases whose name contains A or B (dense-50, dense-200, mixed-50, mixed-200,
                         transport-20x30, assignment-30, setcover-150x300)
  --lp-ts-timeout S      lp: seconds before one of our solves is stopped by its checkpoint (default 120)
  --lp-glpsol-timeout S  lp: seconds before glpsol is killed (default 120)
  --sequences-reps N     sequences: repetitions per case, medians reported (default 3)
  --sequences-sizes N,M  sequences: numbers of terms (default 100,400,1000)
  --sequences-sympy-timeout S  sequences: seconds before a sympy call is killed (default 120)
  --load-rounds N        find-load: idle/loaded phase pairs (default 3)
  --load-idle-calls N    find-load: math.find calls of each idle phase (default 200)
  --load-graph-calls N   find-load: large inline-graph calls in flight in each loaded phase (default 20)
  --era modern|legacy    MCP envelope of every request (default modern: 2026-07-28, JSON answers)
  --log-level LEVEL      JACOBIAN_LOG_LEVEL of the jacobian processes (default info, the product default)
  --wait-quiet S         before each phase, wait up to S seconds for other processes on the machine
                         to use under 0.25 cores (default 0: do not wait; the load is reported anyway)
  --json FILE            also write the full JSON report (with RSS samples) to FILE
  --cpu-prof              run the jacobian processes with node --cpu-prof (profiles in the kept run folder)
  --keep                 keep the run's temporary folder (logs, data) even on success
`;

function positiveInt(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name}: ${value} is not an integer ≥ ${min}`);
  return n;
}

function benchCapability(value: string | undefined): BenchCapability {
  if (value === undefined) return 'triangles';
  if (!Object.hasOwn(BENCH_CAPABILITIES, value)) throw new Error(`--capability: ${value} is not one of ${Object.keys(BENCH_CAPABILITIES).join(', ')}`);
  return value as BenchCapability;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      concurrency: { type: 'string' },
      capability: { type: 'string' },
      sequential: { type: 'string' },
      warmup: { type: 'string' },
      duration: { type: 'string' },
      'find-concurrency': { type: 'string' },
      'find-duration': { type: 'string' },
      'find-warmup': { type: 'string' },
      rounds: { type: 'string' },
      requests: { type: 'string' },
      'sample-ms': { type: 'string' },
      'max-long-run-min': { type: 'string' },
      'no-calibrate': { type: 'boolean' },
      'algebra-budget': { type: 'string' },
      'algebra-max-order': { type: 'string' },
      'algebra-only': { type: 'string' },
      'algebra-warmup': { type: 'string' },
      'graphs-orders': { type: 'string' },
      'graphs-cases': { type: 'string' },
      'graphs-repeat': { type: 'string' },
      'graphs-shard-mib': { type: 'string' },
      'sat-reps': { type: 'string' },
      'startup-rounds': { type: 'string' },
      'sat-only': { type: 'string' },
      'polynomial-reps': { type: 'string' },
      'polynomial-only': { type: 'string' },
      'linalg-reps': { type: 'string' },
      'linalg-sizes': { type: 'string' },
      'linalg-sympy-timeout': { type: 'string' },
      'linalg-ts-timeout': { type: 'string' },
      'lp-reps': { type: 'string' },
      'numbers-reps': { type: 'string' },
      'lp-only': { type: 'string' },
      'lp-ts-timeout': { type: 'string' },
      'lp-glpsol-timeout': { type: 'string' },
      'sequences-reps': { type: 'string' },
      'sequences-sizes': { type: 'string' },
      'sequences-sympy-timeout': { type: 'string' },
      'load-rounds': { type: 'string' },
      'load-idle-calls': { type: 'string' },
      'load-graph-calls': { type: 'string' },
      era: { type: 'string' },
      'log-level': { type: 'string' },
      json: { type: 'string' },
      'wait-quiet': { type: 'string' },
      keep: { type: 'boolean' },
      'cpu-prof': { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const requested = positionals.length === 0 ? ['all'] : positionals;
  for (const name of requested) if (!['queue', 'find', 'find-load', 'startup', 'algebra', 'graphs', 'sat', 'polynomial', 'linalg', 'lp', 'numbers', 'sequences', 'all'].includes(name)) throw new Error(`unknown benchmark ${name}; see --help`);
  const benchmarks = [...new Set(requested.flatMap((name) => (name === 'all' ? ['queue', 'find'] : [name])))];
  // Fail before anything starts when a benchmark's peer is missing.
  if (benchmarks.includes('algebra')) checkCvc5();
  if (benchmarks.includes('graphs')) checkGeng();
  if (benchmarks.includes('sat')) checkCadical();
  if (benchmarks.includes('polynomial')) checkSingular();
  if (benchmarks.includes('linalg')) checkGp();
  if (benchmarks.includes('lp')) checkGlpsol();
  const graphOrders = (values['graphs-orders'] ?? '9,10').split(',').map((part) => positiveInt('graphs-orders', part, 0));
  if (graphOrders.some((n) => n > 10)) throw new Error('--graphs-orders: the TypeScript provider enumerates orders up to 10');
  const era = (values.era ?? 'modern') as Era;
  if (era !== 'modern' && era !== 'legacy') throw new Error(`--era: ${values.era} is not modern or legacy`);

  const runTag = randomBytes(6).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'jacobian-bench-'));
  const log = (message: string): void => {
    process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
  };
  const active = new Set<BenchContext>();
  const waitQuietMs = positiveInt('wait-quiet', values['wait-quiet'], 0, 0) * 1000;
  const quietLog: { label: string; waited_s: number; other_cores: number }[] = [];
  async function waitQuiet(label: string): Promise<number> {
    const started = Date.now();
    const cpu = new CpuWindow(() => []);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const other = cpu.lap().other_cores;
      const waited = (Date.now() - started) / 1000;
      if (other <= 0.25 || Date.now() - started >= waitQuietMs) {
        quietLog.push({ label, waited_s: Math.round(waited), other_cores: other });
        if (other > 0.25) log(`${label}: the machine is busy with other work (${other} cores) after waiting ${Math.round(waited)} s; measuring anyway`);
        return other;
      }
    }
  }
  const reports: Record<string, unknown>[] = [];
  let failed = false;

  async function teardown(context: BenchContext): Promise<{ name: string; pid: number; graceful: boolean; code: number | null; signal: string | null }[]> {
    // The peer shells first: they carry the run's marker, and the sweep below would take them for leftovers.
    await stopPeerShells(context);
    const { stopped, leftovers } = await context.group.stopAll();
    for (const cleanup of context.cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => log(`cleanup failed: ${(error as Error).message}`));
    }
    if (leftovers.length > 0) log(`killed leftover processes by PID: ${leftovers.join(', ')}`);
    for (const s of stopped) {
      if (!s.graceful || (s.code !== 0 && s.signal === null && !s.name.startsWith('loadgen'))) {
        log(`WARNING: ${s.name} (pid ${s.pid}) stopped ${s.graceful ? 'with' : 'only by SIGKILL,'} exit ${s.code ?? s.signal ?? '?'}`);
      }
    }
    active.delete(context);
    return stopped.map((s) => ({ name: s.name, pid: s.pid, graceful: s.graceful, code: s.code, signal: s.signal }));
  }

  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping every process of this run`);
    void Promise.allSettled([...active].map(teardown)).finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const machine = machineInfo();
  log(`run ${runTag}: logs in ${dir}; machine ${JSON.stringify(machine)}`);

  for (const name of benchmarks) {
    const context: BenchContext = {
      runTag: `${runTag}-${name}`,
      dir: mkdtempSync(join(dir, `${name}-`)),
      group: new ProcessGroup(`${runTag}-${name}`),
      logLevel: values['log-level'] ?? 'info',
      jacobianNodeArgs: values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, 'profiles', name)}`] : [],
      cleanups: [],
      log,
      waitQuiet: (label) => (waitQuietMs > 0 ? waitQuiet(label) : Promise.resolve(Number.NaN)),
    };
    active.add(context);
    const loadBefore = loadavg().map((v) => Math.round(v * 100) / 100);
    try {
      if (name === 'queue') {
        const report = await runQueueBench(context, {
          concurrency: positiveInt('concurrency', values.concurrency, 8),
          sequential: positiveInt('sequential', values.sequential, 500),
          warmup: positiveInt('warmup', values.warmup, 50, 0),
          durationMs: positiveInt('duration', values.duration, 10) * 1000,
          era,
          capability: benchCapability(values.capability),
        });
        report.stopped = await teardown(context);
        process.stdout.write(`\n== queue ==\n${printQueueTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
      } else if (name === 'algebra') {
        const maxOrder = positiveInt('algebra-max-order', values['algebra-max-order'], 8);
        if (maxOrder > 10) throw new Error('--algebra-max-order: the countermodel capability searches orders up to 10');
        const report = await runAlgebraBench(context, {
          budgetMs: positiveInt('algebra-budget', values['algebra-budget'], 30) * 1000,
          maxOrder,
          era,
          only: (values['algebra-only'] ?? '').split(',').filter((part) => part !== ''),
          warmUpCalls: positiveInt('algebra-warmup', values['algebra-warmup'], 300, 0),
        });
        report.stopped = await teardown(context);
        process.stdout.write(`\n== algebra ==\n${printAlgebraTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
      } else if (name === 'graphs') {
        const report = await runGraphsBench(context, {
          orders: graphOrders,
          cases: (values['graphs-cases'] ?? '').split(',').filter((part) => part !== ''),
          repeat: positiveInt('graphs-repeat', values['graphs-repeat'], 1),
          shardBytes: positiveInt('graphs-shard-mib', values['graphs-shard-mib'], 12) * 1024 * 1024,
        });
        report.stopped = await teardown(context);
        process.stdout.write(`\n== graphs ==\n${printGraphsTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
        if (report.cases.some((c) => c.disagreements.length > 0)) failed = true;
      } else if (name === 'polynomial') {
        const report = await runPolynomialBench(context, {
          reps: positiveInt('polynomial-reps', values['polynomial-reps'], 3),
          only: (values['polynomial-only'] ?? '').split(',').filter((part) => part !== ''),
          sympyTimeoutMs: 600_000,
        });
        report.stopped = await teardown(context);
        process.stdout.write(`\n== polynomial ==\n${printPolynomialTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
        if (report.rows.some((row) => !row.agree)) failed = true;
      } else if (name === 'linalg') {
        const report = await runLinalgBench(context, {
          reps: positiveInt('linalg-reps', values['linalg-reps'], 1),
          sizes: (values['linalg-sizes'] ?? '20,50,100').split(',').map((part) => positiveInt('linalg-sizes', part, 20)),
          sympyTimeoutMs: positiveInt('linalg-sympy-timeout', values['linalg-sympy-timeout'], 20) * 1000,
          typescriptTimeoutMs: positiveInt('linalg-ts-timeout', values['linalg-ts-timeout'], 120) * 1000,
        });
        await teardown(context);
        process.stdout.write(`\n== linalg ==\n${printLinalgTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
        if (report.rows.some((row) => !row.agree)) failed = true;
      } else if (name === 'lp') {
        const report = await runLpBench(context, {
          reps: positiveInt('lp-reps', values['lp-reps'], 3),
          only: (values['lp-only'] ?? '').split(',').filter((part) => part !== ''),
          typescriptTimeoutMs: positiveInt('lp-ts-timeout', values['lp-ts-timeout'], 120) * 1000,
          glpsolTimeoutMs: positiveInt('lp-glpsol-timeout', values['lp-glpsol-timeout'], 120) * 1000,
        });
        await teardown(context);
        process.stdout.write(`\n== lp ==\n${printLpTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
        if (report.rows.some((row) => row.agree === false)) failed = true;
      } else if (name === 'sequences') {
        const report = runSequencesBench(context, {
          reps: positiveInt('sequences-reps', values['sequences-reps'], 3),
          sizes: (values['sequences-sizes'] ?? '100,400,1000').split(',').map((part) => positiveInt('sequences-sizes', part, 10)),
          orders: [2, 10],
          sympyTimeoutMs: positiveInt('sequences-sympy-timeout', values['sequences-sympy-timeout'], 120) * 1000,
        });
        await teardown(context);
        process.stdout.write(`\n== sequences ==\n${printSequencesTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
        if (report.rows.some((row) => row.agree === false)) failed = true;
      } else if (name === 'numbers') {
        const report = await runNumbersBench(context, { reps: positiveInt('numbers-reps', values['numbers-reps'], 3) });
        await teardown(context);
        process.stdout.write(`\n== numbers ==\n${printNumbersTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
        if (report.rows.some((row) => !row.agree) || report.certificates.rows.some((row) => !row.accepted)) failed = true;
      } else if (name === 'startup') {
        const report = await runStartupBench(context, { rounds: positiveInt('startup-rounds', values['startup-rounds'], 5) });
        report.stopped = await teardown(context);
        process.stdout.write(`\n== startup ==\n${printStartupTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
      } else if (name === 'find-load') {
        const report = await runFindLoadBench(context, {
          rounds: positiveInt('load-rounds', values['load-rounds'], 3),
          idleCalls: positiveInt('load-idle-calls', values['load-idle-calls'], 200),
          graphCalls: positiveInt('load-graph-calls', values['load-graph-calls'], 20),
          satBudgetMs: 15_000,
          era,
        });
        const stopped = await teardown(context);
        process.stdout.write(`\n== find-load ==\n${printFindLoadTables(report)}\n`);
        reports.push({ ...report, stopped, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
      } else if (name === 'sat') {
        const report = await runSatBench(context, {
          reps: positiveInt('sat-reps', values['sat-reps'], 3),
          only: (values['sat-only'] ?? '').split(',').filter((part) => part !== ''),
          timeoutMs: 60_000,
        });
        report.stopped = await teardown(context);
        process.stdout.write(`\n== sat ==\n${printSatTables(report)}\n`);
        reports.push({ ...report, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
        if (report.rows.some((row) => row.verdict !== 'ACCEPTED')) failed = true;
      } else {
        const report = await runFindBench(context, {
          concurrency: positiveInt('find-concurrency', values['find-concurrency'], 8),
          durationMs: positiveInt('find-duration', values['find-duration'], 10) * 1000,
          warmup: positiveInt('find-warmup', values['find-warmup'], 2000, 0),
          rounds: positiveInt('rounds', values.rounds, 2),
          requests: positiveInt('requests', values.requests, 1_000_000, 0),
          maxLongRunMs: positiveInt('max-long-run-min', values['max-long-run-min'], 0, 0) * 60_000,
          sampleMs: positiveInt('sample-ms', values['sample-ms'], 1000, 100),
          era,
          calibrate: values['no-calibrate'] !== true,
        });
        const stopped = await teardown(context);
        process.stdout.write(`\n== find ==\n${printFindTables(report)}\n`);
        reports.push({ ...report, stopped, loadavg_before: loadBefore, loadavg_after: loadavg().map((v) => Math.round(v * 100) / 100) });
      }
    } catch (error) {
      failed = true;
      log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      await teardown(context);
    }
  }

  const full = { run: runTag, machine: { ...machine, loadavg_at_end: loadavg().map((v) => Math.round(v * 100) / 100) }, quiet_waits: quietLog, reports };
  const printable = JSON.parse(JSON.stringify(full, (key, value: unknown) => (key === 'samples' ? `(${Array.isArray(value) ? value.length : 0} samples; see --json)` : value))) as unknown;
  process.stdout.write(`\n== JSON summary ==\n${JSON.stringify(printable, null, 2)}\n`);
  if (values.json !== undefined) {
    writeFileSync(values.json, `${JSON.stringify(full, null, 2)}\n`);
    log(`full report written to ${values.json}`);
  }
  if (failed || values.keep || values['cpu-prof']) log(`logs kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
