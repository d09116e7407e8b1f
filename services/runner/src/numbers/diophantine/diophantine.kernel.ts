/**
 * The isolated part of the Diophantine capabilities: the request's integers crossed a process
 * boundary as decimal text and are read again here; every long loop polls the run's deadline
 * and stops with EXECUTION_TIMEOUT (nothing concluded). Answers go back as decimal text.
 */
import { z } from 'zod';
import { JacobianError, type KernelContext } from '@jacobian/shared';
import { checkPeriodicExpansion, convergents, foldContinuedFraction, quadraticContinuedFraction, rationalContinuedFraction, type Checkpoint } from './continued-fraction.js';
import { fractionText, solveIntegerSystem } from './integer-linear-system.js';
import { solvePell } from './pell.js';
import { classGroup, compose as composeReduced, decideEquivalence, formText, principalForm, reduceForm, type Form, type Transform } from './quadratic-forms.js';

const Int = z.string().regex(/^-?(0|[1-9]\d*)$/);
const FormIn = z.tuple([Int, Int, Int]);

export const DiophantineKernelInput = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('cf_rational'), p: Int, q: Int, convergents: z.number().int() }).strict(),
  z.object({ operation: z.literal('cf_quadratic'), P: Int, D: Int, Q: Int, convergents: z.number().int(), max_terms: z.number().int() }).strict(),
  z.object({ operation: z.literal('pell'), D: Int, max_period: z.number().int() }).strict(),
  z.object({ operation: z.literal('linear_system'), matrix: z.array(z.array(Int)), rhs: z.array(Int) }).strict(),
  z.object({ operation: z.literal('reduce'), form: FormIn }).strict(),
  z.object({ operation: z.literal('equivalence'), f: FormIn, g: FormIn, max_cycle: z.number().int() }).strict(),
  z.object({ operation: z.literal('class_group'), D: Int, list_forms: z.boolean() }).strict(),
  z.object({ operation: z.literal('check_generators'), D: Int, invariants: z.array(Int), generators: z.array(FormIn) }).strict(),
]);
export type DiophantineKernelInput = z.input<typeof DiophantineKernelInput>;

const Texts = z.array(z.string());
const FormOut = z.tuple([z.string(), z.string(), z.string()]);
const TransformOut = z.tuple([z.tuple([z.string(), z.string()]), z.tuple([z.string(), z.string()])]);
const Convergent = z.object({ p: z.string(), q: z.string() }).strict();

export const DiophantineKernelOutput = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('cf_rational'), terms: Texts, convergents: z.array(Convergent) }).strict(),
  z.object({ operation: z.literal('cf_quadratic'), P: z.string(), D: z.string(), Q: z.string(), preperiod: Texts, period: Texts, convergents: z.array(Convergent) }).strict(),
  z.object({ operation: z.literal('pell'), a0: z.string(), period: Texts, plus: z.object({ x: z.string(), y: z.string() }), minus: z.object({ x: z.string(), y: z.string() }).nullable() }).strict(),
  z
    .object({
      operation: z.literal('linear_system'),
      outcome: z.enum(['SOLVED', 'NONE']),
      rank: z.number().int(),
      particular: Texts.nullable(),
      kernel: z.array(Texts).nullable(),
      kernel_right_inverse: z.array(Texts).nullable(),
      obstruction: z.enum(['NOT_INTEGRAL', 'INCONSISTENT_OVER_Q']).nullable(),
      certificate: Texts.nullable(),
      certificate_dot_rhs: z.string().nullable(),
    })
    .strict(),
  z.object({ operation: z.literal('reduce'), kind: z.enum(['definite', 'indefinite']), reduced: FormOut, transform: TransformOut }).strict(),
  z
    .object({
      operation: z.literal('equivalence'),
      equivalent: z.boolean(),
      transform: TransformOut.nullable(),
      reason: z.string().nullable(),
      reduced_f: FormOut.nullable(),
      reduced_g: FormOut.nullable(),
      cycle_length: z.number().int().nullable(),
    })
    .strict(),
  z.object({ operation: z.literal('class_group'), class_number: z.number().int(), invariants: Texts, generators: z.array(FormOut), forms: z.array(FormOut).nullable() }).strict(),
  z.object({ operation: z.literal('check_generators'), ok: z.boolean(), message: z.string() }).strict(),
]);
export type DiophantineKernelOutput = z.infer<typeof DiophantineKernelOutput>;

function deadlineCheck(ctx: KernelContext): Checkpoint {
  let calls = 0;
  return () => {
    if (calls++ % 64 !== 0) return;
    if (ctx.signal.aborted || Date.now() >= ctx.deadline) throw new JacobianError('EXECUTION_TIMEOUT', "the run's wall-time budget ended before the computation was complete; nothing was concluded");
  };
}

const big = (t: string): bigint => BigInt(t);
const toForm = (f: readonly string[]): Form => [big(f[0] as string), big(f[1] as string), big(f[2] as string)];
const transformText = (M: Transform): [[string, string], [string, string]] => [
  [M[0][0].toString(), M[0][1].toString()],
  [M[1][0].toString(), M[1][1].toString()],
];
const convergentTexts = (list: { p: bigint; q: bigint }[]): { p: string; q: string }[] => list.map(({ p, q }) => ({ p: p.toString(), q: q.toString() }));

export function diophantineKernel(raw: unknown, ctx: KernelContext): DiophantineKernelOutput {
  const input = DiophantineKernelInput.parse(raw);
  const checkpoint = deadlineCheck(ctx);
  switch (input.operation) {
    case 'cf_rational': {
      const [p, q] = [big(input.p), big(input.q)];
      const terms = rationalContinuedFraction(p, q, checkpoint);
      const folded = foldContinuedFraction(terms);
      // The recheck: the terms fold back into p/q.
      if (folded.num * q !== p * folded.den) throw new JacobianError('INTERNAL', 'the continued fraction failed its recheck; nothing was concluded');
      return { operation: 'cf_rational', terms: terms.map(String), convergents: convergentTexts(convergents(terms, input.convergents, checkpoint)) };
    }
    case 'cf_quadratic': {
      const expansion = quadraticContinuedFraction(big(input.P), big(input.D), big(input.Q), input.max_terms, checkpoint);
      if (!checkPeriodicExpansion(expansion)) throw new JacobianError('INTERNAL', 'the periodic continued fraction failed its recheck in Q(√D); nothing was concluded');
      const head = [...expansion.preperiod];
      while (head.length < input.convergents) head.push(...expansion.period);
      return {
        operation: 'cf_quadratic',
        P: expansion.P.toString(),
        D: expansion.D.toString(),
        Q: expansion.Q.toString(),
        preperiod: expansion.preperiod.map(String),
        period: expansion.period.map(String),
        convergents: convergentTexts(convergents(head, input.convergents, checkpoint)),
      };
    }
    case 'pell': {
      const solution = solvePell(big(input.D), input.max_period, checkpoint);
      return {
        operation: 'pell',
        a0: solution.a0.toString(),
        period: solution.period.map(String),
        plus: { x: solution.plus.x.toString(), y: solution.plus.y.toString() },
        minus: solution.minus === null ? null : { x: solution.minus.x.toString(), y: solution.minus.y.toString() },
      };
    }
    case 'linear_system': {
      const answer = solveIntegerSystem(
        input.matrix.map((row) => row.map(big)),
        input.rhs.map(big),
        checkpoint,
      );
      return answer.outcome === 'SOLVED'
        ? {
            operation: 'linear_system',
            outcome: 'SOLVED',
            rank: answer.rank,
            particular: answer.particular.map(String),
            kernel: answer.kernel.map((row) => row.map(String)),
            kernel_right_inverse: answer.kernelRightInverse.map((row) => row.map(String)),
            obstruction: null,
            certificate: null,
            certificate_dot_rhs: null,
          }
        : { operation: 'linear_system', outcome: 'NONE', rank: answer.rank, particular: null, kernel: null, kernel_right_inverse: null, obstruction: answer.obstruction, certificate: answer.certificate.map(fractionText), certificate_dot_rhs: fractionText(answer.yb) };
    }
    case 'reduce': {
      const { form, transform, kind } = reduceForm(toForm(input.form), checkpoint);
      return { operation: 'reduce', kind, reduced: formText(form), transform: transformText(transform) };
    }
    case 'equivalence': {
      const answer = decideEquivalence(toForm(input.f), toForm(input.g), input.max_cycle, checkpoint);
      return answer.equivalent
        ? { operation: 'equivalence', equivalent: true, transform: transformText(answer.transform), reason: null, reduced_f: formText(answer.reduced), reduced_g: formText(answer.reduced), cycle_length: null }
        : {
            operation: 'equivalence',
            equivalent: false,
            transform: null,
            reason: answer.reason,
            reduced_f: answer.reduced_f === null ? null : formText(answer.reduced_f),
            reduced_g: answer.reduced_g === null ? null : formText(answer.reduced_g),
            cycle_length: answer.cycle_length,
          };
    }
    case 'class_group': {
      const group = classGroup(big(input.D), checkpoint);
      return { operation: 'class_group', class_number: group.classNumber, invariants: group.invariants.map(String), generators: group.generators.map(formText), forms: input.list_forms ? group.forms.map(formText) : null };
    }
    case 'check_generators':
      return { operation: 'check_generators', ...checkGenerators(big(input.D), input.invariants.map(big), input.generators.map(toForm), checkpoint) };
  }
}

/** What we can recheck of PARI's class group: each generator a reduced form of discriminant D with gᵢ^{dᵢ} = 1 (not that they are independent). */
function checkGenerators(D: bigint, invariants: bigint[], generators: Form[], checkpoint: Checkpoint): { ok: boolean; message: string } {
  if (invariants.length !== generators.length) return { ok: false, message: 'as many generators as invariants are needed' };
  for (const [i, g] of generators.entries()) {
    const d = invariants[i] as bigint;
    if (g[1] * g[1] - 4n * g[0] * g[2] !== D) return { ok: false, message: `generator ${i} has another discriminant` };
    const reduced = reduceForm(g, checkpoint).form;
    const identity = principalForm(D);
    let power = identity;
    let base = reduced;
    let k = d;
    while (k > 0n) {
      if (k & 1n) power = composeReduced(power, base, checkpoint);
      base = composeReduced(base, base, checkpoint);
      k >>= 1n;
    }
    if (power[0] !== identity[0] || power[1] !== identity[1]) return { ok: false, message: `generator ${i} raised to ${d} is not the identity` };
  }
  return { ok: true, message: 'every generator has discriminant D and order dividing its invariant' };
}

