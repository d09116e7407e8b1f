/**
 * Our grammar of propositional formulas, and the typed tree it reads into.
 *
 *   formula  := iff
 *   iff      := implies [ ('<->' | 'iff') implies ]        — not associative: chain with parentheses
 *   implies  := or [ ('->' | 'implies') implies ]          — right-associative: a -> b -> c is a -> (b -> c)
 *   or       := and { ('|' | 'or') and }                   — one n-ary node per unparenthesized chain
 *   and      := unary { ('&' | 'and') unary }
 *   unary    := ('!' | '~' | 'not') unary | atom | '(' formula ')'
 *   atom     := [A-Za-z_][A-Za-z0-9_]*, not a keyword
 *
 * Parentheses are kept as `group` nodes, so a tree says exactly how the formula was written and
 * printing it gives the same tree back. A tree given as JSON must be one the parser could have
 * produced (operands of higher precedence, or grouped): {@link parsePropositionalStructure}
 * checks that, so text and tree stay in one-to-one correspondence up to spelling and spaces.
 */
import { JacobianError, type JsonPath } from '../../errors.js';

/** A propositional formula as written, grouping kept. */
export type PropositionalFormula =
  | { kind: 'atom'; name: string }
  | { kind: 'not'; operand: PropositionalFormula }
  | { kind: 'and'; operands: PropositionalFormula[] }
  | { kind: 'or'; operands: PropositionalFormula[] }
  | { kind: 'implies'; antecedent: PropositionalFormula; consequent: PropositionalFormula }
  | { kind: 'iff'; left: PropositionalFormula; right: PropositionalFormula }
  | { kind: 'group'; inner: PropositionalFormula };

export type PropositionalKind = PropositionalFormula['kind'];

/** Size limits on formulas, text and trees alike. */
export const PROPOSITIONAL_LIMITS = {
  /** Longest formula text accepted. */
  maxTextLength: 200_000,
  /** Most nodes in a tree (atoms, operators and groups). */
  maxNodes: 50_000,
  /**
   * Deepest tree (an atom has depth 1). Stored trees are canonical JSON, which nests at most 64
   * levels, and an and/or level takes two (the node and its operand array): 28 leaves room for
   * the payload and request envelopes around the tree.
   */
  maxDepth: 28,
  /** Most distinct atoms. */
  maxAtoms: 10_000,
  /** Longest atom name. */
  maxAtomLength: 128,
} as const;

/** The rules a formula can break; every error names one. */
export const PropositionalRule = {
  EMPTY_FORMULA: 'EMPTY_FORMULA',
  UNEXPECTED_CHARACTER: 'UNEXPECTED_CHARACTER',
  EXPECTED_OPERAND: 'EXPECTED_OPERAND',
  UNCLOSED_PARENTHESIS: 'UNCLOSED_PARENTHESIS',
  UNEXPECTED_TOKEN: 'UNEXPECTED_TOKEN',
  UNMATCHED_PARENTHESIS: 'UNMATCHED_PARENTHESIS',
  CHAINED_IFF: 'CHAINED_IFF',
  ATOM_NAME: 'ATOM_NAME',
  TOO_LONG: 'TOO_LONG',
  TOO_MANY_NODES: 'TOO_MANY_NODES',
  TOO_DEEP: 'TOO_DEEP',
  TOO_MANY_ATOMS: 'TOO_MANY_ATOMS',
  NODE_SHAPE: 'NODE_SHAPE',
  PRECEDENCE: 'PRECEDENCE',
  /** claim.conjunction.split on a formula whose top level (under outer parentheses) is not `&`. */
  NOT_A_CONJUNCTION: 'NOT_A_CONJUNCTION',
  /** claim.implication.obligations on a formula whose top level is not `->`. */
  NOT_AN_IMPLICATION: 'NOT_AN_IMPLICATION',
} as const;
export type PropositionalRule = (typeof PropositionalRule)[keyof typeof PropositionalRule];

const KEYWORDS = new Set(['not', 'and', 'or', 'implies', 'iff']);
const ATOM_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The INVALID_REQUEST error of a formula: where, which rule, what was wrong. */
export function propositionalError(path: JsonPath, rule: PropositionalRule, message: string, position: { line: number; column: number } | null = null): JacobianError {
  const where = path.length === 0 ? 'formula' : path.join('.');
  const at = position === null ? '' : ` at line ${position.line}, column ${position.column}`;
  return new JacobianError('INVALID_REQUEST', `${where}${at}: ${message} (rule ${rule})`, {
    path,
    data: { rule, ...(position === null ? {} : position) },
  });
}

type TokenKind = 'atom' | 'not' | 'and' | 'or' | 'implies' | 'iff' | '(' | ')' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
  offset: number;
}

const SYMBOLS: [string, TokenKind][] = [
  ['<->', 'iff'],
  ['->', 'implies'],
  ['!', 'not'],
  ['~', 'not'],
  ['&', 'and'],
  ['|', 'or'],
  ['(', '('],
  [')', ')'],
];

function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

function tokenize(text: string, path: JsonPath): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const symbol = SYMBOLS.find(([s]) => text.startsWith(s, i));
    if (symbol !== undefined) {
      tokens.push({ kind: symbol[1], text: symbol[0], offset: i });
      i += symbol[0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[A-Za-z0-9_]/.test(text[j] as string)) j++;
      const word = text.slice(i, j);
      if (word.length > PROPOSITIONAL_LIMITS.maxAtomLength) {
        throw propositionalError(path, 'ATOM_NAME', `the atom name is ${word.length} characters long; the limit is ${PROPOSITIONAL_LIMITS.maxAtomLength}`, positionOf(text, i));
      }
      tokens.push({ kind: KEYWORDS.has(word) ? (word as TokenKind) : 'atom', text: word, offset: i });
      i = j;
      continue;
    }
    throw propositionalError(path, 'UNEXPECTED_CHARACTER', `unexpected character ${JSON.stringify(c)}; formulas use atoms, ! & | -> <-> (or not and or implies iff) and parentheses`, positionOf(text, i));
  }
  tokens.push({ kind: 'end', text: 'end of input', offset: text.length });
  return tokens;
}

/**
 * Parse a formula written in our grammar.
 *
 * @example parsePropositional('(p -> q) & p') // and[group(implies(p, q)), p]
 * @throws JacobianError INVALID_REQUEST naming `path`, the line and column, and the rule broken.
 */
export function parsePropositional(text: string, path: JsonPath = []): PropositionalFormula {
  if (text.length > PROPOSITIONAL_LIMITS.maxTextLength) {
    throw propositionalError(path, 'TOO_LONG', `the text is ${text.length} characters long; the limit is ${PROPOSITIONAL_LIMITS.maxTextLength}`);
  }
  const tokens = tokenize(text, path);
  if (tokens.length === 1) throw propositionalError(path, 'EMPTY_FORMULA', 'the formula is empty');
  let at = 0;
  let nodes = 0;
  const peek = (): Token => tokens[at] as Token;
  const fail = (rule: PropositionalRule, message: string, token: Token = peek()): never => {
    throw propositionalError(path, rule, message, positionOf(text, token.offset));
  };
  const node = <T extends PropositionalFormula>(value: T, token: Token): T => {
    if (++nodes > PROPOSITIONAL_LIMITS.maxNodes) fail('TOO_MANY_NODES', `the formula has more than ${PROPOSITIONAL_LIMITS.maxNodes} nodes`, token);
    return value;
  };
  // `depth` counts the tree levels above the node being read, so the limit bounds recursion too.
  const enter = (depth: number): void => {
    if (depth >= PROPOSITIONAL_LIMITS.maxDepth) fail('TOO_DEEP', `the formula nests deeper than ${PROPOSITIONAL_LIMITS.maxDepth} levels`);
  };

  function unary(depth: number): PropositionalFormula {
    enter(depth);
    const token = peek();
    if (token.kind === 'not') {
      at++;
      return node({ kind: 'not', operand: unary(depth + 1) }, token);
    }
    if (token.kind === 'atom') {
      at++;
      return node({ kind: 'atom', name: token.text }, token);
    }
    if (token.kind === '(') {
      at++;
      const inner = iff(depth + 1);
      if (peek().kind !== ')') fail('UNCLOSED_PARENTHESIS', `expected ")" to close the "(" at column ${positionOf(text, token.offset).column}, found ${describe(peek())}`);
      at++;
      return node({ kind: 'group', inner }, token);
    }
    return fail('EXPECTED_OPERAND', `expected an atom, "!" or "(", found ${describe(token)}`);
  }

  function chain(kind: 'and' | 'or', depth: number, next: (depth: number) => PropositionalFormula): PropositionalFormula {
    const start = peek();
    const first = next(depth);
    if (peek().kind !== kind) return first;
    enter(depth);
    const operands = [first];
    while (peek().kind === kind) {
      at++;
      operands.push(next(depth + 1));
    }
    // The first operand was read at this level, before the chain was known: its recursion is
    // bounded all the same, and the exact tree depth is checked once parsing ends.
    return node({ kind, operands }, start);
  }

  const and = (depth: number): PropositionalFormula => chain('and', depth, unary);
  const or = (depth: number): PropositionalFormula => chain('or', depth, and);

  function implies(depth: number): PropositionalFormula {
    const start = peek();
    const antecedent = or(depth);
    if (peek().kind !== 'implies') return antecedent;
    enter(depth);
    at++;
    return node({ kind: 'implies', antecedent, consequent: implies(depth + 1) }, start);
  }

  function iff(depth: number): PropositionalFormula {
    const start = peek();
    const left = implies(depth);
    if (peek().kind !== 'iff') return left;
    enter(depth);
    at++;
    const right = implies(depth + 1);
    if (peek().kind === 'iff') fail('CHAINED_IFF', '"<->" does not chain: write (a <-> b) <-> c or a <-> (b <-> c)');
    return node({ kind: 'iff', left, right }, start);
  }

  const formula = iff(0);
  if (peek().kind !== 'end') {
    if (peek().kind === ')') fail('UNMATCHED_PARENTHESIS', 'this ")" closes no "("');
    fail('UNEXPECTED_TOKEN', `expected an operator or the end of the formula, found ${describe(peek())}`);
  }
  const stats = formulaStats(formula);
  if (stats.depth > PROPOSITIONAL_LIMITS.maxDepth) throw propositionalError(path, 'TOO_DEEP', `the formula nests ${stats.depth} levels deep; the limit is ${PROPOSITIONAL_LIMITS.maxDepth}`);
  if (stats.atoms.length > PROPOSITIONAL_LIMITS.maxAtoms) throw propositionalError(path, 'TOO_MANY_ATOMS', `the formula has ${stats.atoms.length} distinct atoms; the limit is ${PROPOSITIONAL_LIMITS.maxAtoms}`);
  return formula;
}

function describe(token: Token): string {
  return token.kind === 'end' ? 'the end of the formula' : `"${token.text}"`;
}

/** Which kinds may stand, ungrouped, in each operand position: exactly what the parser produces. */
const ALLOWED: Record<'not' | 'and' | 'or' | 'antecedent' | 'consequent' | 'iff', readonly PropositionalKind[]> = {
  not: ['atom', 'not', 'group'],
  and: ['atom', 'not', 'group'],
  or: ['atom', 'not', 'group', 'and'],
  antecedent: ['atom', 'not', 'group', 'and', 'or'],
  consequent: ['atom', 'not', 'group', 'and', 'or', 'implies'],
  iff: ['atom', 'not', 'group', 'and', 'or', 'implies'],
};

const KIND_FIELDS: Record<PropositionalKind, readonly string[]> = {
  atom: ['kind', 'name'],
  not: ['kind', 'operand'],
  and: ['kind', 'operands'],
  or: ['kind', 'operands'],
  implies: ['kind', 'antecedent', 'consequent'],
  iff: ['kind', 'left', 'right'],
  group: ['kind', 'inner'],
};

/**
 * Check a formula tree given as JSON (e.g. a stored structure's `formula`) and return it typed.
 * The tree must be one the parser could have produced from its printing: n-ary `and`/`or` with
 * at least two operands, operands of higher precedence unless wrapped in a `group`.
 *
 * @throws JacobianError INVALID_REQUEST naming the JSON path of the offending node and the rule.
 */
export function parsePropositionalStructure(value: unknown, path: JsonPath = []): PropositionalFormula {
  let nodes = 0;
  const atoms = new Set<string>();
  const shape = (at: JsonPath, message: string): never => {
    throw propositionalError(at, 'NODE_SHAPE', message);
  };
  function visit(raw: unknown, at: JsonPath, depth: number, position: keyof typeof ALLOWED | null): PropositionalFormula {
    if (depth > PROPOSITIONAL_LIMITS.maxDepth) throw propositionalError(at, 'TOO_DEEP', `the tree nests deeper than ${PROPOSITIONAL_LIMITS.maxDepth} levels`);
    if (++nodes > PROPOSITIONAL_LIMITS.maxNodes) throw propositionalError(at, 'TOO_MANY_NODES', `the tree has more than ${PROPOSITIONAL_LIMITS.maxNodes} nodes`);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return shape(at, 'a node is an object with a `kind`');
    const record = raw as Record<string, unknown>;
    const kind = record['kind'];
    if (typeof kind !== 'string' || !Object.hasOwn(KIND_FIELDS, kind)) return shape([...at, 'kind'], `kind must be one of ${Object.keys(KIND_FIELDS).join(', ')}`);
    const k = kind as PropositionalKind;
    const fields = KIND_FIELDS[k];
    for (const key of Object.keys(record)) if (!fields.includes(key)) shape([...at, key], `a ${k} node has only the fields ${fields.join(', ')}`);
    if (position !== null && !ALLOWED[position].includes(k)) {
      throw propositionalError(at, 'PRECEDENCE', `a ${k} node cannot stand ungrouped as ${position === 'antecedent' || position === 'consequent' ? `the ${position} of an implication` : `an operand of ${position}`}; wrap it in a group node`);
    }
    switch (k) {
      case 'atom': {
        const name = record['name'];
        if (typeof name !== 'string' || !ATOM_PATTERN.test(name) || KEYWORDS.has(name) || name.length > PROPOSITIONAL_LIMITS.maxAtomLength) {
          throw propositionalError([...at, 'name'], 'ATOM_NAME', `an atom name matches [A-Za-z_][A-Za-z0-9_]*, is not a keyword (${[...KEYWORDS].join(', ')}) and has at most ${PROPOSITIONAL_LIMITS.maxAtomLength} characters`);
        }
        atoms.add(name);
        if (atoms.size > PROPOSITIONAL_LIMITS.maxAtoms) throw propositionalError(at, 'TOO_MANY_ATOMS', `more than ${PROPOSITIONAL_LIMITS.maxAtoms} distinct atoms`);
        return { kind: 'atom', name };
      }
      case 'not':
        return { kind: 'not', operand: visit(record['operand'], [...at, 'operand'], depth + 1, 'not') };
      case 'and':
      case 'or': {
        const operands = record['operands'];
        if (!Array.isArray(operands) || operands.length < 2) return shape([...at, 'operands'], `an ${k} node has an array of at least two operands`);
        return { kind: k, operands: operands.map((operand, i) => visit(operand, [...at, 'operands', i], depth + 1, k)) };
      }
      case 'implies':
        return {
          kind: 'implies',
          antecedent: visit(record['antecedent'], [...at, 'antecedent'], depth + 1, 'antecedent'),
          consequent: visit(record['consequent'], [...at, 'consequent'], depth + 1, 'consequent'),
        };
      case 'iff':
        return { kind: 'iff', left: visit(record['left'], [...at, 'left'], depth + 1, 'iff'), right: visit(record['right'], [...at, 'right'], depth + 1, 'iff') };
      case 'group':
        return { kind: 'group', inner: visit(record['inner'], [...at, 'inner'], depth + 1, null) };
    }
  }
  return visit(value, path, 1, null);
}

/** Spellings of the operators when printing. */
export type PropositionalNotation = 'symbols' | 'words';

/**
 * Print a formula in our grammar; parsing the text gives the same tree back.
 *
 * @example printPropositional(parsePropositional('(p->q)&p')) // '(p -> q) & p'
 */
export function printPropositional(formula: PropositionalFormula, notation: PropositionalNotation = 'symbols'): string {
  const op = notation === 'symbols' ? { not: '!', and: ' & ', or: ' | ', implies: ' -> ', iff: ' <-> ' } : { not: 'not ', and: ' and ', or: ' or ', implies: ' implies ', iff: ' iff ' };
  const print = (f: PropositionalFormula): string => {
    switch (f.kind) {
      case 'atom':
        return f.name;
      case 'not':
        return op.not + print(f.operand);
      case 'and':
        return f.operands.map(print).join(op.and);
      case 'or':
        return f.operands.map(print).join(op.or);
      case 'implies':
        return print(f.antecedent) + op.implies + print(f.consequent);
      case 'iff':
        return print(f.left) + op.iff + print(f.right);
      case 'group':
        return `(${print(f.inner)})`;
    }
  };
  return print(formula);
}

/** The immediate subtrees of a node, in order. */
export function childrenOf(formula: PropositionalFormula): PropositionalFormula[] {
  switch (formula.kind) {
    case 'atom':
      return [];
    case 'not':
      return [formula.operand];
    case 'and':
    case 'or':
      return formula.operands;
    case 'implies':
      return [formula.antecedent, formula.consequent];
    case 'iff':
      return [formula.left, formula.right];
    case 'group':
      return [formula.inner];
  }
}

/** Counts of a tree: nodes (groups included), depth (an atom is 1), atoms in order of first appearance. */
export interface FormulaStats {
  nodes: number;
  depth: number;
  atoms: string[];
}

export function formulaStats(formula: PropositionalFormula): FormulaStats {
  let nodes = 0;
  let depth = 0;
  const atoms = new Set<string>();
  // Explicit stack: the parser bounds depth, but stats also run on trees built in code.
  const stack: [PropositionalFormula, number][] = [[formula, 1]];
  while (stack.length > 0) {
    const [f, d] = stack.pop() as [PropositionalFormula, number];
    nodes++;
    depth = Math.max(depth, d);
    if (f.kind === 'atom') atoms.add(f.name);
    const children = childrenOf(f);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] as PropositionalFormula, d + 1]);
  }
  return { nodes, depth, atoms: [...atoms] };
}

/**
 * The truth value of a formula under an assignment of its atoms.
 *
 * @throws JacobianError INVALID_REQUEST when an atom has no value.
 */
export function evaluatePropositional(formula: PropositionalFormula, assignment: Readonly<Record<string, boolean>>): boolean {
  const value = (f: PropositionalFormula): boolean => {
    switch (f.kind) {
      case 'atom': {
        const v = Object.hasOwn(assignment, f.name) ? assignment[f.name] : undefined;
        if (v === undefined) throw new JacobianError('INVALID_REQUEST', `the assignment gives no value to the atom ${f.name}`);
        return v;
      }
      case 'not':
        return !value(f.operand);
      case 'and':
        return f.operands.every(value);
      case 'or':
        return f.operands.some(value);
      case 'implies':
        return !value(f.antecedent) || value(f.consequent);
      case 'iff':
        return value(f.left) === value(f.right);
      case 'group':
        return value(f.inner);
    }
  };
  return value(formula);
}

/** The formula under its outer parentheses, and how many pairs enclosed it. */
export function unwrapGroups(formula: PropositionalFormula): { core: PropositionalFormula; groups: number } {
  let core = formula;
  let groups = 0;
  while (core.kind === 'group') {
    core = core.inner;
    groups++;
  }
  return { core, groups };
}
