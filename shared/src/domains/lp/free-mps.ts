/**
 * Free MPS text: a strict reader to the request form, and a writer that our reader, GLPK's glpsol
 * (--freemps) and CBC read back.
 *
 * What the reader accepts:
 * - A line starting in column 1 with anything but a blank or `*` is a section header (section
 *   names in any case); data lines start with a blank; `*` in column 1 starts a comment line.
 *   Fields are separated by blanks; names have no blanks.
 * - Sections in this order, each at most once: NAME (the rest of its line is ignored), OBJSENSE
 *   (MIN, MAX, MINIMIZE or MAXIMIZE, on its line or the next), ROWS and COLUMNS (both required),
 *   RHS, RANGES, BOUNDS, ENDATA (required; nothing but comments and blanks after it). Any other
 *   header is an unknown section, or for QUADOBJ, QMATRIX, QSECTION, QCMATRIX, SOS, CSECTION,
 *   INDICATORS, LAZYCONS, USERCUTS, OBJNAME, GENCONS, PWLOBJ, SETS, an unsupported one.
 * - ROWS: `type name`, type N, L (≤), G (≥) or E (=). The first N row is the objective; other N
 *   rows are read and dropped with every entry on them (RHS included); a range on one is an error.
 * - COLUMNS: `column row value [row value]`; each column's lines form one block (a column that
 *   comes back after another is an error, as is the same row twice in one column); markers
 *   `name 'MARKER' 'INTORG'` … `name 'MARKER' 'INTEND'` make the columns between them integer.
 *   A column exists by appearing here (an entry with value 0 declares a column with no coefficient).
 * - RHS and RANGES: `[set] row value [row value]`: with an odd number of fields the first is the
 *   set's name. Only one set is read: a second set name is an error. An RHS on the objective row
 *   is minus the objective constant (objective = c·x − RHS: the usual convention, and CBC's, measured;
 *   GLPK 5.0 reads it as +constant, measured).
 * - RANGES, with R the range of a row with right-hand side b: an L row holds b − |R| ≤ a·x ≤ b,
 *   a G row b ≤ a·x ≤ b + |R|, an E row b ≤ a·x ≤ b + R when R > 0 and b + R ≤ a·x ≤ b when
 *   R < 0 (unchanged when R = 0). Our rows have one side, so a ranged row becomes two: the row
 *   under its own name with the side its type (or, for E, the sign of R) gives it, and right after
 *   it a row named `<name>_range` with the other side; that name clashing with another row is
 *   an error.
 * - BOUNDS: `type [set] column [value]`, types UP, LO, FX, LI, UI (with a value) and FR, MI, PL,
 *   BV (without); the set name is present when the field count says so. UP/LO/FX set the upper,
 *   lower or both bounds; FR both infinite; MI lower −∞ (the upper bound unchanged);
 *   PL upper +∞; BV integer in [0, 1]; LI/UI integer with that lower/upper bound. The same bound
 *   of a column set twice is an error (readers that accept it keep the last one).
 * - Where the common readers disagree, the text must be explicit (an error says so, never a
 *   silent choice): an UP or UI bound below zero on a column whose lower bound is not given
 *   (CBC then sets the lower bound to −∞, as QSopt documents; GLPK 5.0 keeps 0: both measured),
 *   and an integer column with no upper bound given (GLPK 5.0 and CBC default it to 1, measured;
 *   other readers to +∞).
 * - In COLUMNS, RHS and RANGES lines, a field after the first that starts with $ begins a comment
 *   to the end of the line (GLPK writes "$ empty column"); so a row name cannot start with $.
 * - Numbers are exact: integers, decimals with an optional exponent and, as our extension,
 *   fractions p/q. 1e30 is a large number, not infinity.
 */
import type { JsonPath } from '../../errors.js';
import { RATIONALS, type Rational } from '../polynomial/field.js';
import { LpRule, type LpProblem, type LpProblemInput, type LpRelation } from './problem.js';
import { checkName, checkNumberSize, freshName, LpTextRule, ProblemBuilder, readNumber, TextErrors, writeNumber, writtenNames, type LpWriteOptions, type TextPosition, type TextReadOptions, type WrittenLp } from './text-support.js';

interface Field extends TextPosition {
  text: string;
}

const SECTIONS = ['NAME', 'OBJSENSE', 'ROWS', 'COLUMNS', 'RHS', 'RANGES', 'BOUNDS', 'ENDATA'] as const;
type Section = (typeof SECTIONS)[number];
const UNSUPPORTED_SECTIONS = new Set(['QUADOBJ', 'QMATRIX', 'QSECTION', 'QCMATRIX', 'SOS', 'CSECTION', 'INDICATORS', 'LAZYCONS', 'USERCUTS', 'OBJNAME', 'GENCONS', 'PWLOBJ', 'SETS']);
const SENSES = new Map<string, 'minimize' | 'maximize'>(Object.entries({ MIN: 'minimize', MINIMIZE: 'minimize', MINIMISE: 'minimize', MAX: 'maximize', MAXIMIZE: 'maximize', MAXIMISE: 'maximize' } as const));
const BOUND_TYPES_WITH_VALUE = new Set(['UP', 'LO', 'FX', 'LI', 'UI']);
const BOUND_TYPES_WITHOUT_VALUE = new Set(['FR', 'MI', 'PL', 'BV']);

const RELATIONS = new Map<string, LpRelation>(Object.entries({ L: '<=', G: '>=', E: '=' } as const));

/** COLUMNS, RHS and RANGES lines end at a field after the first that starts with $ (a comment, as GLPK writes "$ empty column"). */
function withoutComment(fields: Field[]): Field[] {
  const comment = fields.findIndex((field, k) => k > 0 && field.text.startsWith('$'));
  return comment < 0 ? fields : fields.slice(0, comment);
}

class MpsReader {
  private readonly builder: ProblemBuilder;
  private objective: string | null = null;
  /** Rows of type N other than the objective: read, and their entries dropped. */
  private readonly freeRows = new Set<string>();
  private readonly rowAt = new Map<string, TextPosition>();
  private section: Section | null = null;
  private seen = -1;
  private objectiveRhsAt: TextPosition | null = null;
  private readonly rhsAt = new Map<number, TextPosition>();
  private readonly ranges = new Map<number, { value: Rational; at: TextPosition }>();
  private readonly sets: Partial<Record<'RHS' | 'RANGES' | 'BOUNDS', Field>> = {};
  private currentColumn: string | null = null;
  private readonly columnsDone = new Set<string>();
  private marker: TextPosition | null = null;
  private readonly firstSeen = new Map<number, TextPosition>();
  private readonly negativeUpper: { j: number; at: TextPosition }[] = [];
  private senseAwaited: TextPosition | null = null;
  private lastLine = 1;

  constructor(private readonly errors: TextErrors) {
    this.builder = new ProblemBuilder(errors);
  }

  read(text: string): LpProblemInput {
    // Line by line without splitting the whole text first: a bad line fails before the rest is looked at.
    let number = 0;
    for (let start = 0; start <= text.length; ) {
      const newline = text.indexOf('\n', start);
      const stop = newline < 0 ? text.length : newline;
      const line = text.slice(start, stop > start && text[stop - 1] === '\r' ? stop - 1 : stop);
      start = stop + 1;
      number++;
      if (line.startsWith('*') || line.trim() === '') continue;
      this.lastLine = number;
      if (this.section === 'ENDATA') throw this.errors.at({ line: number, column: 1 }, LpTextRule.SYNTAX, 'nothing but comments may follow ENDATA');
      const fields = this.fields(line, number);
      const first = fields[0];
      if (first === undefined) continue;
      if (first.column === 1) this.header(fields);
      else this.data(fields);
    }
    const end: TextPosition = { line: this.lastLine + 1, column: 1 };
    for (const required of ['ROWS', 'COLUMNS', 'ENDATA'] as const) {
      if (this.seen < SECTIONS.indexOf(required)) throw this.errors.at(end, LpTextRule.MISSING_SECTION, `the text ends without a ${required} section`);
    }
    this.applyRanges();
    this.checkAmbiguousBounds();
    return this.builder.finish(end);
  }

  /** The blank-separated fields of a line, each with its column; only printable ASCII and tabs. */
  private fields(line: string, number: number): Field[] {
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      if (code !== 9 && (code < 0x20 || code > 0x7e)) throw this.errors.at({ line: number, column: i + 1 }, LpTextRule.CHARACTER, `unexpected character U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
    }
    return [...line.matchAll(/[^ \t]+/g)].map((m) => ({ text: m[0], line: number, column: (m.index ?? 0) + 1 }));
  }

  private header(fields: Field[]): void {
    const head = fields[0] as Field;
    const word = head.text.toUpperCase();
    const index = SECTIONS.indexOf(word as Section);
    if (index < 0) {
      if (UNSUPPORTED_SECTIONS.has(word)) throw this.errors.at(head, LpTextRule.UNSUPPORTED, `the ${word} section is not supported (linear programs with integer markers only)`);
      throw this.errors.at(head, LpTextRule.UNKNOWN_SECTION, `"${head.text.slice(0, 40)}" is not a section of free MPS (NAME, OBJSENSE, ROWS, COLUMNS, RHS, RANGES, BOUNDS, ENDATA); data lines start with a blank`);
    }
    if (index <= this.seen) throw this.errors.at(head, LpTextRule.SECTION_ORDER, `${word} ${index === this.seen ? 'appears twice' : `comes after ${SECTIONS[this.seen] ?? ''}`}; the order is ${SECTIONS.join(', ')}`);
    if (this.senseAwaited !== null) throw this.errors.at(head, LpTextRule.SYNTAX, 'OBJSENSE is not followed by MIN or MAX');
    if (this.marker !== null) throw this.errors.at(head, LpTextRule.MARKER, `the integer marker of line ${this.marker.line} is not closed by an INTEND marker`);
    const section = word as Section;
    if (section !== 'ROWS' && section !== 'NAME' && section !== 'OBJSENSE' && this.seen < SECTIONS.indexOf('ROWS')) throw this.errors.at(head, LpTextRule.MISSING_SECTION, `${word} before ROWS`);
    if (section !== 'COLUMNS' && index > SECTIONS.indexOf('COLUMNS') && this.seen < SECTIONS.indexOf('COLUMNS')) throw this.errors.at(head, LpTextRule.MISSING_SECTION, `${word} before COLUMNS`);
    this.seen = index;
    this.section = section;
    if (section === 'NAME') return;
    if (section === 'OBJSENSE') {
      if (fields.length === 1) this.senseAwaited = head;
      else this.sense(fields.slice(1));
      return;
    }
    if (section === 'COLUMNS' && this.objective === null) throw this.errors.at(head, LpTextRule.MISSING_SECTION, 'ROWS has no N row (the objective)');
    if (fields.length > 1) throw this.errors.at(fields[1] as Field, LpTextRule.SYNTAX, `nothing may follow ${word} on its line`);
  }

  private sense(fields: Field[]): void {
    const value = fields[0] as Field;
    const sense = SENSES.get(value.text.toUpperCase());
    if (sense === undefined || fields.length > 1) throw this.errors.at(fields[sense === undefined ? 0 : 1] as Field, LpTextRule.SYNTAX, 'OBJSENSE takes MIN or MAX (or MINIMIZE, MAXIMIZE)');
    this.builder.sense = sense;
    this.senseAwaited = null;
  }

  private data(fields: Field[]): void {
    const first = fields[0] as Field;
    switch (this.section) {
      case null:
        throw this.errors.at(first, LpTextRule.SYNTAX, 'a data line before any section (section headers start in column 1)');
      case 'NAME':
        throw this.errors.at(first, LpTextRule.SYNTAX, 'NAME has no data lines');
      case 'OBJSENSE':
        if (this.senseAwaited === null) throw this.errors.at(first, LpTextRule.SYNTAX, 'OBJSENSE takes one line');
        this.sense(fields);
        return;
      case 'ROWS':
        this.rowLine(fields);
        return;
      case 'COLUMNS':
        this.columnLine(withoutComment(fields));
        return;
      case 'RHS':
      case 'RANGES':
        this.valueLine(withoutComment(fields), this.section);
        return;
      case 'BOUNDS':
        this.boundLine(fields);
        return;
      case 'ENDATA':
        throw this.errors.at(first, LpTextRule.SYNTAX, 'nothing may follow ENDATA');
    }
  }

  private rowLine(fields: Field[]): void {
    const [type, name] = fields;
    if (type === undefined || name === undefined || fields.length !== 2) throw this.errors.at(fields[Math.min(fields.length, 2)] ?? (fields[0] as Field), LpTextRule.SYNTAX, 'a ROWS line is "type name", type N, L, G or E');
    const kind = type.text.toUpperCase();
    checkName(this.errors, name.text, name, 'row');
    if (name.text.startsWith('$')) throw this.errors.at(name, LpRule.NAME_SYNTAX, `row name "${name.text.slice(0, 40)}" starts with $, which begins a comment where COLUMNS, RHS and RANGES name rows`);
    const earlier = this.rowAt.get(name.text);
    if (earlier !== undefined) throw this.errors.at(name, LpRule.DUPLICATE_NAME, `row "${name.text}" is already declared at line ${earlier.line}`);
    if (kind === 'N') {
      if (this.objective === null) this.objective = name.text;
      else this.freeRows.add(name.text);
    } else {
      const relation = RELATIONS.get(kind);
      if (relation === undefined) throw this.errors.at(type, LpTextRule.SYNTAX, `"${type.text}" is not a row type (N, L, G or E)`);
      this.builder.row(name.text, relation, name);
    }
    this.rowAt.set(name.text, name);
  }

  private columnLine(fields: Field[]): void {
    const column = fields[0] as Field;
    if (fields.length === 3 && fields[1]?.text.toUpperCase() === "'MARKER'") {
      const kind = (fields[2] as Field).text.toUpperCase();
      if (kind === "'INTORG'") {
        if (this.marker !== null) throw this.errors.at(fields[2] as Field, LpTextRule.MARKER, `INTORG inside the integer block opened at line ${this.marker.line}`);
        this.marker = column;
      } else if (kind === "'INTEND'") {
        if (this.marker === null) throw this.errors.at(fields[2] as Field, LpTextRule.MARKER, 'INTEND without an INTORG before it');
        this.marker = null;
      } else {
        throw this.errors.at(fields[2] as Field, LpTextRule.MARKER, `a marker is 'INTORG' or 'INTEND', not ${(fields[2] as Field).text}`);
      }
      return;
    }
    if (fields.length !== 3 && fields.length !== 5) throw this.errors.at(fields[Math.min(fields.length, 5)] ?? column, LpTextRule.SYNTAX, 'a COLUMNS line is "column row value [row value]"');
    if (column.text !== this.currentColumn) {
      if (this.columnsDone.has(column.text)) throw this.errors.at(column, LpTextRule.COLUMN_BLOCK, `column "${column.text}" comes back after other columns (line ${this.firstSeen.get(this.builder.variableIndex.get(column.text) ?? -1)?.line ?? '?'}); each column's entries must be consecutive`);
      if (this.currentColumn !== null) this.columnsDone.add(this.currentColumn);
      this.currentColumn = column.text;
      const j = this.builder.variable(column.text, column);
      this.firstSeen.set(j, column);
      const variable = this.builder.variables[j];
      if (variable !== undefined && this.marker !== null) variable.integer = true;
    }
    const j = this.builder.variableIndex.get(column.text) ?? 0;
    for (let k = 1; k < fields.length; k += 2) {
      const row = fields[k] as Field;
      const value = fields[k + 1] as Field;
      const number = readNumber(this.errors, value.text, value);
      if (row.text === this.objective) {
        this.builder.addCoefficient(this.builder.objective, j, number, row, { sum: false, where: 'the objective' });
      } else if (!this.freeRows.has(row.text)) {
        const i = this.builder.rowIndex.get(row.text);
        const target = i === undefined ? undefined : this.builder.rows[i];
        if (target === undefined) throw this.errors.at(row, LpRule.UNKNOWN_NAME, `"${row.text}" is not a row declared in ROWS`);
        this.builder.addCoefficient(target.coefficients, j, number, row, { sum: false, where: `row "${row.text}"` });
      }
    }
  }

  /** RHS and RANGES: `[set] row value [row value]`. */
  private valueLine(fields: Field[], section: 'RHS' | 'RANGES'): void {
    if (fields.length < 2 || fields.length > 5) throw this.errors.at(fields[5] ?? (fields[0] as Field), LpTextRule.SYNTAX, `a ${section} line is "[set] row value [row value]"`);
    let k = 0;
    if (fields.length % 2 === 1) {
      this.checkSet(section, fields[0] as Field);
      k = 1;
    }
    for (; k < fields.length; k += 2) {
      const row = fields[k] as Field;
      const value = fields[k + 1] as Field;
      const number = readNumber(this.errors, value.text, value);
      if (section === 'RHS') this.rhs(row, number);
      else this.range(row, number);
    }
  }

  private checkSet(section: 'RHS' | 'RANGES' | 'BOUNDS', name: Field): void {
    const first = this.sets[section];
    if (first === undefined) this.sets[section] = name;
    else if (first.text !== name.text) throw this.errors.at(name, LpTextRule.MULTIPLE_SETS, `a second ${section} set "${name.text}" (the first is "${first.text}" at line ${first.line}); only one set is read`);
  }

  private rhs(row: Field, value: Rational): void {
    if (row.text === this.objective) {
      if (this.objectiveRhsAt !== null) throw this.errors.at(row, LpTextRule.DUPLICATE_ENTRY, `the objective's RHS is already given at line ${this.objectiveRhsAt.line}`);
      this.objectiveRhsAt = row;
      this.builder.objectiveConstant = RATIONALS.neg(value);
      return;
    }
    if (this.freeRows.has(row.text)) return;
    const i = this.builder.rowIndex.get(row.text);
    const target = i === undefined ? undefined : this.builder.rows[i];
    if (i === undefined || target === undefined) throw this.errors.at(row, LpRule.UNKNOWN_NAME, `"${row.text}" is not a row declared in ROWS`);
    const earlier = this.rhsAt.get(i);
    if (earlier !== undefined) throw this.errors.at(row, LpTextRule.DUPLICATE_ENTRY, `the RHS of row "${row.text}" is already given at line ${earlier.line}`);
    this.rhsAt.set(i, row);
    target.rhs = value;
  }

  private range(row: Field, value: Rational): void {
    if (row.text === this.objective || this.freeRows.has(row.text)) throw this.errors.at(row, LpTextRule.SYNTAX, `"${row.text}" is an N row; a range on it has no meaning`);
    const i = this.builder.rowIndex.get(row.text);
    if (i === undefined) throw this.errors.at(row, LpRule.UNKNOWN_NAME, `"${row.text}" is not a row declared in ROWS`);
    const earlier = this.ranges.get(i);
    if (earlier !== undefined) throw this.errors.at(row, LpTextRule.DUPLICATE_ENTRY, `the range of row "${row.text}" is already given at line ${earlier.at.line}`);
    this.ranges.set(i, { value, at: row });
  }

  private boundLine(fields: Field[]): void {
    const type = fields[0] as Field;
    const kind = type.text.toUpperCase();
    if (kind === 'SC') throw this.errors.at(type, LpTextRule.UNSUPPORTED, 'semi-continuous bounds (SC) are not supported');
    const withValue = BOUND_TYPES_WITH_VALUE.has(kind);
    if (!withValue && !BOUND_TYPES_WITHOUT_VALUE.has(kind)) throw this.errors.at(type, LpTextRule.SYNTAX, `"${type.text}" is not a bound type (UP, LO, FX, FR, MI, PL, BV, LI, UI)`);
    const counts = withValue ? [3, 4] : [2, 3];
    if (!counts.includes(fields.length)) throw this.errors.at(fields[Math.min(fields.length, counts[1] ?? 0)] ?? type, LpTextRule.SYNTAX, `a ${kind} bound is "${kind} [set] column${withValue ? ' value' : ''}"`);
    const hasSet = fields.length === counts[1];
    if (hasSet) this.checkSet('BOUNDS', fields[1] as Field);
    const column = fields[hasSet ? 2 : 1] as Field;
    const j = this.builder.variableIndex.get(column.text);
    if (j === undefined) throw this.errors.at(column, LpRule.UNKNOWN_NAME, `"${column.text}" is not a column of COLUMNS`);
    const valueField = withValue ? (fields.at(-1) as Field) : null;
    const value = valueField === null ? null : readNumber(this.errors, valueField.text, valueField);
    const variable = this.builder.variables[j];
    if (variable === undefined) return;
    const set = (side: 'lower' | 'upper', v: Rational | null): void => this.builder.setBound(j, side, v, type);
    switch (kind) {
      case 'UP':
      case 'UI':
        set('upper', value);
        if (kind === 'UI') variable.integer = true;
        if (value !== null && value.num < 0n) this.negativeUpper.push({ j, at: type });
        return;
      case 'LO':
      case 'LI':
        set('lower', value);
        if (kind === 'LI') variable.integer = true;
        return;
      case 'FX':
        set('lower', value);
        set('upper', value);
        return;
      case 'FR':
        set('lower', null);
        set('upper', null);
        return;
      case 'MI':
        set('lower', null);
        return;
      case 'PL':
        set('upper', null);
        return;
      case 'BV':
        set('lower', RATIONALS.zero);
        set('upper', RATIONALS.one);
        variable.integer = true;
        return;
    }
  }

  /** A ranged row becomes the row and `<name>_range`, right after it. */
  private applyRanges(): void {
    if (this.ranges.size === 0) return;
    const rows = this.builder.rows;
    const order = [...rows];
    const inserted: { after: number; row: (typeof rows)[number] }[] = [];
    for (const [i, { value, at }] of [...this.ranges.entries()].sort((a, b) => a[0] - b[0])) {
      const row = rows[i];
      if (row === undefined) continue;
      const b = row.rhs;
      const r = value.num < 0n ? RATIONALS.neg(value) : value;
      let other: { relation: LpRelation; rhs: Rational };
      if (row.relation === '<=') other = { relation: '>=', rhs: RATIONALS.sub(b, r) };
      else if (row.relation === '>=') other = { relation: '<=', rhs: RATIONALS.add(b, r) };
      else if (value.num === 0n) continue;
      else if (value.num > 0n) {
        row.relation = '>=';
        other = { relation: '<=', rhs: RATIONALS.add(b, value) };
      } else {
        row.relation = '<=';
        other = { relation: '>=', rhs: RATIONALS.add(b, value) };
      }
      const name = `${row.name}_range`;
      const clash = this.rowAt.get(name);
      if (clash !== undefined) throw this.errors.at(at, LpRule.DUPLICATE_NAME, `the ranged row "${row.name}" becomes two rows, "${row.name}" and "${name}", but row "${name}" is declared at line ${clash.line}`);
      const added = this.builder.row(name, other.relation, at);
      added.rhs = checkNumberSize(this.errors, other.rhs, at, `the other side of ranged row "${row.name}"`);
      for (const [j, coefficient] of row.coefficients) this.builder.addCoefficient(added.coefficients, j, coefficient, at, { sum: false, where: `row "${name}"` });
      this.rowAt.set(name, at);
      inserted.push({ after: i, row: added });
    }
    // Each added row right after its base row.
    rows.length = 0;
    order.forEach((row, i) => {
      rows.push(row);
      for (const extra of inserted) if (extra.after === i) rows.push(extra.row);
    });
    this.builder.rowIndex.clear();
    rows.forEach((row, i) => this.builder.rowIndex.set(row.name, i));
  }

  private checkAmbiguousBounds(): void {
    for (const { j, at } of this.negativeUpper) {
      const variable = this.builder.variables[j];
      if (variable !== undefined && variable.lowerAt === null) {
        throw this.errors.at(at, LpTextRule.BOUND_AMBIGUOUS, `column "${variable.name}" has a negative upper bound and no lower bound; MPS readers disagree on what that means (CBC sets the lower bound to -infinity, GLPK 5.0 keeps 0): give the lower bound too (LO or MI)`);
      }
    }
    this.builder.variables.forEach((variable, j) => {
      if (variable.integer && variable.upperAt === null) {
        throw this.errors.at(this.firstSeen.get(j) ?? { line: 1, column: 1 }, LpTextRule.BOUND_AMBIGUOUS, `integer column "${variable.name}" has no upper bound in BOUNDS; MPS readers disagree on its default (GLPK 5.0 and CBC: 1; others, like our JSON form: +infinity): give UP, PL or BV`);
      }
    });
  }
}

/**
 * Read free MPS text (see the module comment) into the request form, every number exact and
 * canonical. Errors: INVALID_REQUEST at `options.path` (default ['text']) with the line, column
 * and rule in the message and in `data`.
 */
export function parseFreeMps(text: string, options: TextReadOptions = {}): LpProblemInput {
  const errors = new TextErrors('free MPS', options.path ?? (['text'] as JsonPath));
  errors.checkLength(text);
  return new MpsReader(errors).read(text);
}

/** Longest name CBC's MPS reader takes (CoinMpsIO's field limit). */
const MPS_NAME_LENGTH = 100;
const MPS_RESERVED = new Set([...SECTIONS, "'MARKER'", 'MARKER', 'RHS', 'RNG', 'BND']);

/** True when free MPS (and GLPK and CBC) can carry `name` as it is. */
export function isFreeMpsName(name: string): boolean {
  return /^[!-~]+$/.test(name) && name.length <= MPS_NAME_LENGTH && !name.startsWith('$') && !name.startsWith('*') && !MPS_RESERVED.has(name.toUpperCase());
}

/** Options of the MPS writer. */
export interface MpsWriteOptions extends LpWriteOptions {
  /**
   * 'write' (default): a maximization gets an OBJSENSE section (CPLEX's extension, read by
   * our reader). 'omit': no OBJSENSE (GLPK's glpsol refuses the section, and the cbc program
   * ignores it: pass --max / -max to them); the text then reads as a minimization.
   */
  objectiveSense?: 'write' | 'omit';
}

/**
 * Write a stored problem as free MPS: columns in the problem's order (a column with no
 * coefficient gets an explicit 0 on the objective row), rows in order, integer columns between
 * INTORG/INTEND markers with both bounds explicit, RHS set "RHS", bound set "BND", and "FREE" on
 * the NAME line (CBC reads the text as free MPS only then). Names free MPS cannot carry (over
 * 100 characters, a leading $ or *, a section word or MARKER, RHS, RNG, BND) are renamed as
 * {@link writtenNames} says; the objective row is "obj" (with "_" appended while a row has that
 * name). Numbers and the objective constant: see {@link LpWriteOptions}.
 */
export function writeFreeMps(problem: LpProblem, options: MpsWriteOptions = {}): WrittenLp {
  const style = options.fractions ?? 'fraction';
  const exact = { value: true };
  const { variableNames, rowNames, renamed } = writtenNames(problem, isFreeMpsName);
  const objectiveName = freshName('obj', new Set(rowNames));
  const number = (canonical: string): string => writeNumber(canonical, style, exact);
  const lines: string[] = [`* ${problem.variables.length} variables, ${problem.constraints.length} rows`, 'NAME LP FREE'];
  if (problem.sense === 'maximize') {
    if (options.objectiveSense === 'omit') exact.value = false;
    else lines.push('OBJSENSE', '    MAX');
  }
  lines.push('ROWS', ` N ${objectiveName}`);
  problem.constraints.forEach((row, i) => lines.push(` ${row.relation === '<=' ? 'L' : row.relation === '>=' ? 'G' : 'E'} ${rowNames[i] ?? ''}`));
  lines.push('COLUMNS');
  const column = new Map(problem.variables.map((v) => [v.name, [] as [string, string][]]));
  problem.constraints.forEach((row, i) => {
    for (const [name, value] of Object.entries(row.coefficients)) column.get(name)?.push([rowNames[i] ?? '', value]);
  });
  let inMarker = false;
  problem.variables.forEach((v, j) => {
    if (v.integer !== inMarker) {
      lines.push(` MARKER 'MARKER' '${v.integer ? 'INTORG' : 'INTEND'}'`);
      inMarker = v.integer;
    }
    const name = variableNames[j] ?? '';
    const cost = Object.hasOwn(problem.objective, v.name) ? problem.objective[v.name] : undefined;
    const entries: [string, string][] = [...(cost === undefined ? [] : [[objectiveName, cost] as [string, string]]), ...(column.get(v.name) ?? [])];
    if (entries.length === 0) entries.push([objectiveName, '0']);
    for (const [row, value] of entries) lines.push(` ${name} ${row} ${number(value)}`);
  });
  if (inMarker) lines.push(" MARKER 'MARKER' 'INTEND'");
  const rhs: string[] = [];
  if (problem.objective_constant !== '0') {
    if (options.objectiveConstant === 'omit') exact.value = false;
    else rhs.push(` RHS ${objectiveName} ${number(problem.objective_constant.startsWith('-') ? problem.objective_constant.slice(1) : `-${problem.objective_constant}`)}`);
  }
  problem.constraints.forEach((row, i) => {
    if (row.rhs !== '0') rhs.push(` RHS ${rowNames[i] ?? ''} ${number(row.rhs)}`);
  });
  if (rhs.length > 0) lines.push('RHS', ...rhs);
  const bounds: string[] = [];
  problem.variables.forEach((v, j) => {
    const name = variableNames[j] ?? '';
    if (v.lower === null && v.upper === null) bounds.push(` FR BND ${name}`);
    else if (v.lower !== null && v.lower === v.upper) bounds.push(` FX BND ${name} ${number(v.lower)}`);
    else {
      if (v.lower === null) bounds.push(` MI BND ${name}`);
      else if (v.lower !== '0') bounds.push(` LO BND ${name} ${number(v.lower)}`);
      if (v.upper !== null) bounds.push(` UP BND ${name} ${number(v.upper)}`);
      else if (v.integer) bounds.push(` PL BND ${name}`);
    }
  });
  if (bounds.length > 0) lines.push('BOUNDS', ...bounds);
  lines.push('ENDATA', '');
  return { text: lines.join('\n'), variableNames, rowNames, objectiveName, renamed, exact: exact.value };
}
