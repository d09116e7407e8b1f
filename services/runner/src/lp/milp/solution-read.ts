/**
 * Reading what CBC and glpsol answer, strictly: the solution file they write (CBC's `-solu` text
 * with `-printingOptions all`, glpsol's `-w` text) and the few lines of their log that carry the
 * bound and the gap. Anything not in the formats below is PROVIDER_FAILED, never a guess. Values
 * stay the decimal text the solver printed; making them exact, and checking them, is
 * incumbent.ts's work. Every number here is the solver's, in the solver's scale (see SolverFeed).
 */
import { JacobianError } from '@jacobian/shared';

/** What the solver says it found. */
export const SolverVerdict = {
  /** Optimal (within the gap asked for), with an incumbent. */
  OPTIMAL: 'OPTIMAL',
  INFEASIBLE: 'INFEASIBLE',
  UNBOUNDED: 'UNBOUNDED',
  /** Stopped by a limit (time, iterations, …), with or without an incumbent. */
  LIMIT: 'LIMIT',
} as const;
export type SolverVerdict = (typeof SolverVerdict)[keyof typeof SolverVerdict];

export interface SolverAnswer {
  verdict: SolverVerdict;
  /** The solver's own words for its status, e.g. "Stopped on time" or "INTEGER OPTIMAL". */
  said: string;
  /** Column j's value as printed, for x{j+1}; null without an incumbent. */
  values: string[] | null;
  /** The incumbent's objective as the solver computed it (its scale); null without one. */
  objective: number | null;
  /** The solver's bound on the optimum (its scale, a lower bound: the solver minimizes); null when it has none. */
  bound: number | null;
  /** The solver's relative gap as it reports it; null when it reports none. */
  gap: number | null;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function failed(solver: string, message: string): JacobianError {
  return new JacobianError('PROVIDER_FAILED', `${solver}: ${message}; the answer was discarded`);
}

function number(solver: string, text: string): number {
  if (!DECIMAL.test(text)) throw failed(solver, `"${text.slice(0, 40)}" is not a number`);
  return Number(text);
}

/** Columns x1..xn from `{name → value}`, each exactly once. */
function columnValues(solver: string, found: Map<number, string>, columns: number): string[] {
  if (found.size !== columns) throw failed(solver, `the solution has ${found.size} column values, not ${columns}`);
  return Array.from({ length: columns }, (_, j) => {
    const value = found.get(j);
    if (value === undefined) throw failed(solver, `the solution has no value for x${j + 1}`);
    return value;
  });
}

const CBC_STATUS = /^(.+?) - objective value (\S+)$/;
const CBC_LINE = /^(?:\*\*)?\s*(\d+)\s+([rx])(\d+)\s+(\S+)\s+(\S+)$/;

/**
 * CBC's solution file (`-printingOptions all -solu`): a status line, then one line per row
 * (r…) and per column (x…): index, name, value, dual or reduced cost, a leading `**` marking a
 * value CBC itself finds infeasible. `log` is CBC's stdout, for the bound and the gap.
 */
export function readCbcSolution(text: string, log: string, columns: number, rows: number): SolverAnswer {
  const lines = text.split('\n').map((line) => line.trimEnd());
  if (lines.at(-1) === '') lines.pop();
  const head = CBC_STATUS.exec(lines[0] ?? '');
  if (head === null) throw failed('CBC', `the solution file starts with ${JSON.stringify((lines[0] ?? '').slice(0, 100))}, not a status line`);
  const said = (head[1] as string).trim();
  const objective = number('CBC', head[2] as string);
  let verdict: SolverVerdict;
  let incumbent: boolean;
  // "Optimal (within gap tolerance)": stopped at the relative gap it was allowed.
  if (said === 'Optimal' || said === 'Optimal (within gap tolerance)') [verdict, incumbent] = [SolverVerdict.OPTIMAL, true];
  else if (said === 'Infeasible' || said === 'Integer infeasible') [verdict, incumbent] = [SolverVerdict.INFEASIBLE, false];
  else if (said === 'Unbounded') [verdict, incumbent] = [SolverVerdict.UNBOUNDED, false];
  else if (/^Stopped on [a-z-]+ \(no integer solution - continuous used\)$/.test(said)) [verdict, incumbent] = [SolverVerdict.LIMIT, false];
  else if (/^Stopped on [a-z-]+$/.test(said)) [verdict, incumbent] = [SolverVerdict.LIMIT, true];
  else throw failed('CBC', `unknown status ${JSON.stringify(said.slice(0, 100))}`);
  const found = new Map<number, string>();
  let rowCount = 0;
  for (const line of lines.slice(1)) {
    const match = CBC_LINE.exec(line);
    if (match === null) throw failed('CBC', `unexpected line ${JSON.stringify(line.slice(0, 100))} in the solution file`);
    const [, , kind, index, value = ''] = match;
    number('CBC', value);
    number('CBC', match[5] as string);
    if (kind === 'r') {
      rowCount++;
      continue;
    }
    const j = Number(index) - 1;
    if (j < 0 || j >= columns || found.has(j)) throw failed('CBC', `the solution names x${index} twice or out of range`);
    found.set(j, value);
  }
  if (rowCount !== rows) throw failed('CBC', `the solution has ${rowCount} row lines, not ${rows}`);
  const values = incumbent ? columnValues('CBC', found, columns) : null;
  const logBound = /^Lower bound:\s+(\S+)\s*$/m.exec(log)?.[1];
  const logGap = /^Gap:\s+(\S+)\s*$/m.exec(log)?.[1];
  // Without a bound in the log, a proved optimum is its own bound (gap 0); nothing else is assumed.
  const proved = said === 'Optimal';
  const bound = logBound !== undefined ? number('CBC', logBound) : proved ? objective : null;
  const gap = logGap === undefined || logGap === 'inf' ? (proved && logGap === undefined ? 0 : null) : number('CBC', logGap);
  return { verdict, said, values, objective: incumbent ? objective : null, bound, gap };
}

/**
 * glpsol's closing messages, and what each means. The log of a MIP also holds the messages of
 * its LP relaxation ("OPTIMAL LP SOLUTION FOUND" before the search), so the last one printed
 * decides; for a MIP, the LP messages count only for the relaxation's infeasibility or
 * unboundedness.
 */
const GLPSOL_MESSAGES: readonly { pattern: RegExp; verdict: SolverVerdict; mip: boolean; lp: boolean }[] = [
  { pattern: /^INTEGER OPTIMAL SOLUTION FOUND.*$/gm, verdict: SolverVerdict.OPTIMAL, mip: true, lp: false },
  { pattern: /^RELATIVE MIP GAP TOLERANCE REACHED.*$/gm, verdict: SolverVerdict.OPTIMAL, mip: true, lp: false },
  { pattern: /^OPTIMAL LP SOLUTION FOUND.*$/gm, verdict: SolverVerdict.OPTIMAL, mip: false, lp: true },
  { pattern: /^(?:PROBLEM|LP) HAS NO (?:PRIMAL|INTEGER) FEASIBLE SOLUTION.*$/gm, verdict: SolverVerdict.INFEASIBLE, mip: true, lp: true },
  { pattern: /^(?:PROBLEM|LP) HAS UNBOUNDED (?:PRIMAL )?SOLUTION.*$/gm, verdict: SolverVerdict.UNBOUNDED, mip: true, lp: true },
  { pattern: /^(?:TIME|MEMORY|ITERATION) LIMIT EXCEEDED.*$/gm, verdict: SolverVerdict.LIMIT, mip: true, lp: true },
];

/** The last closing message in `log` that counts for a MIP (or an LP), with what it means. */
function closingMessage(log: string, mip: boolean): { text: string; verdict: SolverVerdict } | undefined {
  let last: { text: string; verdict: SolverVerdict; at: number } | undefined;
  for (const message of GLPSOL_MESSAGES) {
    if (!(mip ? message.mip : message.lp)) continue;
    for (const match of log.matchAll(message.pattern)) {
      if (last === undefined || match.index > last.at) last = { text: match[0].trim(), verdict: message.verdict, at: match.index };
    }
  }
  return last;
}

/**
 * glpsol's `-w` file: comment lines `c`, the status line (`s mip m n st obj` for a MIP,
 * `s bas m n pst dst obj` for an LP), rows `i …`, columns `j …`, and `e o f`. `log` is glpsol's
 * stdout: its closing message says what an undefined status means, its last progress line
 * (`+ n: mip = … >= bound … gap%`) gives the bound and gap.
 */
export function readGlpsolSolution(text: string, log: string, columns: number, rows: number): SolverAnswer {
  const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('c'));
  const head = lines[0]?.split(' ') ?? [];
  const mip = head[1] === 'mip';
  if (head[0] !== 's' || !(mip ? head.length === 6 : head[1] === 'bas' && head.length === 7) || head[2] !== String(rows) || head[3] !== String(columns)) {
    throw failed('glpsol', `the solution file's status line is ${JSON.stringify((lines[0] ?? '').slice(0, 100))}, not one for ${rows} rows and ${columns} columns`);
  }
  if (lines.at(-1) !== 'e o f') throw failed('glpsol', 'the solution file does not end with "e o f"');
  const message = closingMessage(log, mip);
  const said = message === undefined ? `status ${head.slice(4, -1).join(' ')}` : message.text;
  let verdict: SolverVerdict;
  let incumbent: boolean;
  if (mip) {
    const status = head[4];
    if (status === 'o') [verdict, incumbent] = [SolverVerdict.OPTIMAL, true];
    // Feasible, not proved optimal: optimal only when the search stopped at the gap it was allowed.
    else if (status === 'f') [verdict, incumbent] = [message?.verdict === SolverVerdict.OPTIMAL && /^RELATIVE MIP GAP/.test(message.text) ? SolverVerdict.OPTIMAL : SolverVerdict.LIMIT, true];
    else if (status === 'n') [verdict, incumbent] = [SolverVerdict.INFEASIBLE, false];
    else if (status === 'u' && message !== undefined && message.verdict !== SolverVerdict.OPTIMAL) [verdict, incumbent] = [message.verdict, false];
    else throw failed('glpsol', `MIP status "${status}" with ${message === undefined ? 'no closing message' : `the message "${said}"`}`);
  } else {
    const [primal, dual] = [head[4], head[5]];
    if (primal === 'f' && dual === 'f') [verdict, incumbent] = [SolverVerdict.OPTIMAL, true];
    else if (primal === 'f' && dual === 'n') [verdict, incumbent] = [SolverVerdict.UNBOUNDED, false];
    else if (primal === 'n') [verdict, incumbent] = [SolverVerdict.INFEASIBLE, false];
    else if (message !== undefined && message.verdict !== SolverVerdict.OPTIMAL) [verdict, incumbent] = [message.verdict, false];
    else throw failed('glpsol', `LP status "${primal} ${dual}" with ${message === undefined ? 'no closing message' : `the message "${said}"`}`);
  }
  const objective = number('glpsol', head.at(-1) as string);
  const found = new Map<number, string>();
  let rowCount = 0;
  for (const line of lines.slice(1, -1)) {
    const fields = line.split(' ');
    const kind = fields[0];
    const expected = mip ? 3 : 5;
    if ((kind !== 'i' && kind !== 'j') || fields.length !== expected || !/^[1-9]\d*$/.test(fields[1] ?? '')) throw failed('glpsol', `unexpected line ${JSON.stringify(line.slice(0, 100))} in the solution file`);
    if (!mip && !['b', 'l', 'u', 'f', 's'].includes(fields[2] ?? '')) throw failed('glpsol', `unexpected basis status in ${JSON.stringify(line.slice(0, 100))}`);
    const value = fields[mip ? 2 : 3] as string;
    number('glpsol', value);
    if (!mip) number('glpsol', fields[4] as string);
    if (kind === 'i') {
      rowCount++;
      continue;
    }
    const j = Number(fields[1]) - 1;
    if (j >= columns || found.has(j)) throw failed('glpsol', `the solution names column ${fields[1]} twice or out of range`);
    found.set(j, value);
  }
  if (rowCount !== rows) throw failed('glpsol', `the solution has ${rowCount} row lines, not ${rows}`);
  const values = incumbent ? columnValues('glpsol', found, columns) : null;
  // The last progress line: "+ 40638: mip =   9.000000000e+00 >=   0.000000000e+00 100.0% (5288; 5104)".
  const progress = [...log.matchAll(/^\+\s*\d+: (?:mip =|>>>>>)\s+(?:\S+|not found yet)\s+>=\s+(tree is empty|-inf|\S+)\s*(?:(\S+)%)?/gm)].at(-1);
  let bound: number | null = null;
  let gap: number | null = null;
  if (progress !== undefined) {
    const [, boundText = '', gapText] = progress;
    bound = boundText === 'tree is empty' ? (incumbent ? objective : null) : boundText === '-inf' ? null : number('glpsol', boundText);
    gap = gapText === undefined ? null : number('glpsol', gapText) / 100;
  }
  if (verdict === SolverVerdict.OPTIMAL && bound === null && gap === null) [bound, gap] = [objective, 0];
  return { verdict, said, values, objective: incumbent ? objective : null, bound, gap };
}
