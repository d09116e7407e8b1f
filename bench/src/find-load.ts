/**
 * `bench find-load`: math.find latency on an idle `jacobian serve`, and on the same server while
 * 20 large inline-graph math.run calls (a complete graph on 256 vertices, about 300 KB of JSON
 * each) and one huge SAT model (`sat.model.find` on `p cnf 4000000 2`, budget 15 s) are in
 * flight, measured in one run and reported as ratios (loaded / idle). It also reports when the
 * SAT answer arrived against its budget (the target: within budget + 2 s) and how large it was.
 *
 * math.find is called one at a time (the next when the last is answered), each with a query not
 * sent before, so no answer comes from the server's cache. Idle and loaded phases alternate.
 */
import { jacobianEnvironment, startJacobian, type BenchContext } from './context.js';
import { HttpClient, parseToolCall, toolCall, type Era } from './mcp-http.js';
import { ratio, round, summarize, table, type LatencySummary } from './stats.js';

export interface FindLoadOptions {
  /** Idle/loaded phase pairs. */
  rounds: number;
  /** math.find calls of each idle phase. */
  idleCalls: number;
  /** Large inline-graph calls in flight in each loaded phase. */
  graphCalls: number;
  /** The SAT call's wall-time budget. */
  satBudgetMs: number;
  era: Era;
}

interface Phase {
  round: number;
  phase: 'idle' | 'loaded';
  latency: LatencySummary;
  /** Loaded: when the last large call was answered, from the start of the phase. */
  load_seconds: number | null;
  graph_statuses: Record<string, number>;
  /** `status`: execution status; `answer`: the output's status (SATISFIABLE, UNKNOWN when the solver was stopped at the budget). */
  sat: { status: string; answer: string; answered_ms: number; budget_ms: number; response_bytes: number; within_budget_plus_2s: boolean } | null;
}

export interface FindLoadReport {
  benchmark: 'find-load';
  options: FindLoadOptions & { graph_request_bytes: number; sat_formula: string };
  phases: Phase[];
  summary: Record<string, number>;
  targets: { name: string; target: string; measured: number | string; met: boolean }[];
}

const ORDER = 256;
const SAT_FORMULA = 'p cnf 4000000 2\n1 2 0\n-1 -2 0\n';
const WORDS = ['graph', 'tree', 'induced', 'maximum', 'verify', 'construct', 'explicit', 'artifact', 'vertex', 'edge', 'sat', 'model', 'polynomial', 'groebner', 'checker', 'countermodel'];

function completeGraphEdges(order: number): [number, number][] {
  const edges: [number, number][] = [];
  for (let i = 0; i < order; i++) for (let j = i + 1; j < order; j++) edges.push([i, j]);
  return edges;
}

export async function runFindLoadBench(context: BenchContext, options: FindLoadOptions): Promise<FindLoadReport> {
  context.log('find-load: starting jacobian serve');
  const jacobian = await startJacobian(context, 'find-load-jacobian', ['serve', '--host', '127.0.0.1', '--port', '0'], { env: jacobianEnvironment(context, 'find-load-jacobian', {}) });
  if (jacobian.url === undefined) throw new Error('jacobian serve did not log its URL');
  const client = new HttpClient(jacobian.url, options.graphCalls + 8);
  const edges = completeGraphEdges(ORDER);
  let id = 1;
  let query = 0;
  const nextQuery = (): Record<string, unknown> => {
    const n = query++;
    const a = WORDS[n % WORDS.length] as string;
    const b = WORDS[Math.floor(n / WORDS.length) % WORDS.length] as string;
    return { query: `${a} ${b} ${Math.floor(n / (WORDS.length * WORDS.length))}`, limit: 1 + (n % 20) };
  };
  const findOnce = async (): Promise<number> => {
    const started = performance.now();
    const outcome = parseToolCall(await client.post(toolCall(options.era, id++, 'math.find', nextQuery())));
    if (outcome.result === undefined || outcome.result.isError === true) throw new Error(`math.find failed: ${outcome.error ?? JSON.stringify(outcome.result).slice(0, 300)}`);
    return performance.now() - started;
  };
  const graphRequestBytes = toolCall(options.era, 0, 'math.run', { capability_id: 'graph.triangle_count.compute', payload: { graph: { order: ORDER, edges } } }).body.length;

  try {
    // Warm-up, unmeasured: the first calls compile the search and the admission worker starts.
    for (let i = 0; i < 50; i++) await findOnce();
    const warm = await client.post(toolCall(options.era, id++, 'math.run', { capability_id: 'graph.triangle_count.compute', payload: { graph: { order: ORDER, edges } }, budget: { wall_time_ms: 60_000 } }));
    if (parseToolCall(warm).result === undefined) throw new Error(`the warm-up graph call failed: ${warm.body.slice(0, 300)}`);

    const phases: Phase[] = [];
    for (let round_ = 1; round_ <= options.rounds; round_++) {
      await context.waitQuiet(`find-load round ${round_} idle`);
      const idle: number[] = [];
      for (let i = 0; i < options.idleCalls; i++) idle.push(await findOnce());
      phases.push({ round: round_, phase: 'idle', latency: summarize(idle), load_seconds: null, graph_statuses: {}, sat: null });
      context.log(`find-load: round ${round_}: idle math.find p50 ${round(summarize(idle).p50_ms, 2)} ms`);

      await context.waitQuiet(`find-load round ${round_} loaded`);
      const started = performance.now();
      const graphStatuses: Record<string, number> = {};
      // Distinct budgets: distinct requests, so none is answered from an earlier round's result.
      const graphs = Array.from({ length: options.graphCalls }, (_, i) =>
        client
          .post(toolCall(options.era, id++, 'math.run', { capability_id: 'graph.triangle_count.compute', payload: { graph: { order: ORDER, edges } }, budget: { wall_time_ms: 30_000 + round_ * 100 + i } }))
          .then((response) => {
            const status = String((parseToolCall(response).result?.structuredContent?.['execution'] as { status?: string } | undefined)?.status ?? 'NO_RESULT');
            graphStatuses[status] = (graphStatuses[status] ?? 0) + 1;
          }),
      );
      const satBudget = options.satBudgetMs + round_;
      const sat = client.post(toolCall(options.era, id++, 'math.run', { capability_id: 'sat.model.find', payload: { dimacs: SAT_FORMULA }, budget: { wall_time_ms: satBudget } })).then((response) => {
        const answeredMs = performance.now() - started;
        const content = parseToolCall(response).result?.structuredContent;
        const execution = content?.['execution'] as { status?: string } | undefined;
        const output = content?.['output'] as { status?: string } | null | undefined;
        return { status: execution?.status ?? 'NO_RESULT', answer: output?.status ?? 'none', answered_ms: round(answeredMs, 0), budget_ms: satBudget, response_bytes: response.body.length, within_budget_plus_2s: answeredMs <= satBudget + 2000 };
      });
      let inFlight = true;
      const all = Promise.all([...graphs, sat]).finally(() => {
        inFlight = false;
      });
      const loaded: number[] = [];
      while (inFlight) loaded.push(await findOnce());
      const [satOutcome] = await Promise.all([sat, all]);
      const loadSeconds = round((performance.now() - started) / 1000, 2);
      phases.push({ round: round_, phase: 'loaded', latency: summarize(loaded), load_seconds: loadSeconds, graph_statuses: graphStatuses, sat: satOutcome });
      context.log(
        `find-load: round ${round_}: loaded math.find p50 ${round(summarize(loaded).p50_ms, 2)} ms, p99 ${round(summarize(loaded).p99_ms, 2)} ms over ${loaded.length} calls; SAT ${satOutcome.status} ${satOutcome.answer} at ${satOutcome.answered_ms} ms (${satOutcome.response_bytes} bytes)`,
      );
    }

    const pooled = (phase: 'idle' | 'loaded', key: 'p50_ms' | 'p99_ms' | 'max_ms'): number => {
      const values = phases.filter((p) => p.phase === phase).map((p) => p.latency[key]);
      return round(values.reduce((a, b) => a + b, 0) / values.length, 2);
    };
    const summary: Record<string, number> = {
      idle_p50_ms: pooled('idle', 'p50_ms'),
      idle_p99_ms: pooled('idle', 'p99_ms'),
      loaded_p50_ms: pooled('loaded', 'p50_ms'),
      loaded_p99_ms: pooled('loaded', 'p99_ms'),
      loaded_max_ms: pooled('loaded', 'max_ms'),
      p50_loaded_over_idle: ratio(pooled('loaded', 'p50_ms'), pooled('idle', 'p50_ms')),
      p99_loaded_over_idle: ratio(pooled('loaded', 'p99_ms'), pooled('idle', 'p99_ms')),
    };
    const sats = phases.flatMap((p) => (p.sat === null ? [] : [p.sat]));
    const targets: FindLoadReport['targets'] = [
      {
        name: 'the huge SAT model answered within its budget + 2 s (every round)',
        target: 'yes',
        measured: sats.map((s) => `${s.status} ${s.answer} at ${s.answered_ms} ms of ${s.budget_ms}`).join('; '),
        met: sats.every((s) => s.within_budget_plus_2s),
      },
      { name: 'math.find p50 under load / idle p50', target: '≤ 3', measured: summary['p50_loaded_over_idle'] as number, met: (summary['p50_loaded_over_idle'] as number) <= 3 },
    ];
    return {
      benchmark: 'find-load',
      options: { ...options, graph_request_bytes: graphRequestBytes, sat_formula: SAT_FORMULA.split('\n')[0] as string },
      phases,
      summary,
      targets,
    };
  } finally {
    client.close();
  }
}

export function printFindLoadTables(report: FindLoadReport): string {
  const phases = table(
    ['round', 'phase', 'find calls', 'p50 ms', 'p99 ms', 'max ms', 'load s', 'graph calls', 'SAT'],
    report.phases.map((p) => [
      p.round,
      p.phase,
      p.latency.count,
      round(p.latency.p50_ms, 2),
      round(p.latency.p99_ms, 2),
      round(p.latency.max_ms, 2),
      p.load_seconds ?? '',
      Object.entries(p.graph_statuses)
        .map(([status, count]) => `${count} ${status}`)
        .join(', '),
      p.sat === null ? '' : `${p.sat.status} ${p.sat.answer} at ${p.sat.answered_ms} ms (budget ${p.sat.budget_ms}), ${p.sat.response_bytes} B`,
    ]),
  );
  const summary = table(['measure', 'value'], Object.entries(report.summary));
  const targets = table(['target', 'wanted', 'measured', 'met'], report.targets.map((t) => [t.name, t.target, t.measured, t.met ? 'yes' : 'NO']));
  return [phases, '', summary, '', targets].join('\n');
}
