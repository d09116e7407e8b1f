/** Signatures and laws the universal-algebra capabilities' invocation examples share. */

/** One binary infix operation `*`, variables x, y, z. */
export const SEMIGROUP_SIGNATURE = { operations: [{ name: '*', arity: 2, infix: true }], variables: ['x', 'y', 'z'] };

/** `*`, a constant `e` and a unary `i`, variables x, y, z. */
export const GROUP_SIGNATURE = {
  operations: [
    { name: '*', arity: 2, infix: true },
    { name: 'e', arity: 0 },
    { name: 'i', arity: 1 },
  ],
  variables: ['x', 'y', 'z'],
};

export const ASSOCIATIVITY = 'x * (y * z) = (x * y) * z';

/** Associativity, a left identity and left inverses: the group axioms in GROUP_SIGNATURE. */
export const GROUP_LAWS = [ASSOCIATIVITY, 'e * x = x', 'i(x) * x = e'];
