// Cost-line quantity formulas, evaluated safely: a small tokenizer and a recursive-descent parser
// compile the text into a tree of closures over exact rationals. There is no eval, no Function,
// no property access and no way to reach a global: the only names are the whitelisted functions
// below and the variables the caller supplies (looked up in a Map, never on an object prototype).
//
// Grammar (lowest to highest precedence):
//   expr     := term (('+' | '-') term)*
//   term     := unary (('*' | '/') unary)*
//   unary    := ('-' | '+') unary | power
//   power    := primary (('^' | '**') unary)?          right-associative; -2^2 = -(2^2)
//   primary  := NUMBER | NAME | NAME '(' [expr (',' expr)*] ')' | '(' expr ')'
//   NUMBER   := digits ['.' digits] | '.' digits        (no exponent notation)
//   NAME     := [A-Za-z_][A-Za-z0-9_]*
// Functions: min(a, b, ...), max(a, b, ...), ceil(x), floor(x), abs(x), round(x[, digits]).
// Exponents must evaluate to an integer between -64 and 64.
import { Rational } from './rational.ts';

export type FormulaErrorCode =
  | 'syntax'
  | 'unknown_variable'
  | 'unknown_function'
  | 'arity'
  | 'missing_variable'
  | 'division_by_zero'
  | 'bad_exponent'
  | 'bad_digits'
  | 'too_long';

export class FormulaError extends Error {
  readonly code: FormulaErrorCode;
  /** 0-based character offset in the formula text (where the problem starts). */
  readonly position: number;
  readonly formula: string;
  constructor(code: FormulaErrorCode, message: string, position: number, formula: string) {
    super(`${message} (at position ${position + 1})`);
    this.name = 'FormulaError';
    this.code = code;
    this.position = position;
    this.formula = formula;
  }
}

export const MAX_FORMULA_LENGTH = 500;
const MAX_DEPTH = 64;
const FUNCTIONS: Record<string, { min: number; max: number }> = {
  min: { min: 1, max: 64 },
  max: { min: 1, max: 64 },
  ceil: { min: 1, max: 1 },
  floor: { min: 1, max: 1 },
  abs: { min: 1, max: 1 },
  round: { min: 1, max: 2 },
};
export const FORMULA_FUNCTIONS: readonly string[] = Object.keys(FUNCTIONS);

type TokenKind = 'num' | 'name' | 'op' | '(' | ')' | ',' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
  pos: number;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if ((c >= '0' && c <= '9') || c === '.') {
      while (i < text.length && text[i] >= '0' && text[i] <= '9') i++;
      if (text[i] === '.') {
        i++;
        const fracStart = i;
        while (i < text.length && text[i] >= '0' && text[i] <= '9') i++;
        if (i === fracStart && i - 1 === start) throw new FormulaError('syntax', `unexpected "."`, start, text);
      }
      if (text[i] === '.') throw new FormulaError('syntax', 'malformed number', start, text);
      out.push({ kind: 'num', text: text.slice(start, i), pos: start });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      while (i < text.length && /[A-Za-z0-9_]/.test(text[i])) i++;
      out.push({ kind: 'name', text: text.slice(start, i), pos: start });
      continue;
    }
    if (c === '*' && text[i + 1] === '*') {
      out.push({ kind: 'op', text: '^', pos: start });
      i += 2;
      continue;
    }
    if ('+-*/^'.includes(c)) {
      out.push({ kind: 'op', text: c, pos: start });
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      out.push({ kind: c, text: c, pos: start });
      i++;
      continue;
    }
    throw new FormulaError('syntax', `unexpected character "${c}"`, start, text);
  }
  out.push({ kind: 'end', text: '', pos: text.length });
  return out;
}

type Env = ReadonlyMap<string, Rational>;
type Node = (env: Env) => Rational;

class Parser {
  private i = 0;
  private depth = 0;
  readonly variables = new Set<string>();
  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
    private readonly allowed: ReadonlySet<string> | null,
  ) {}

  private peek(): Token {
    return this.tokens[this.i];
  }
  private next(): Token {
    return this.tokens[this.i++];
  }
  private fail(code: FormulaErrorCode, message: string, pos: number): never {
    throw new FormulaError(code, message, pos, this.text);
  }
  private expect(kind: TokenKind, what: string): Token {
    const t = this.peek();
    if (t.kind !== kind) this.fail('syntax', `expected ${what} but found ${describe(t)}`, t.pos);
    return this.next();
  }

  parseAll(): Node {
    if (this.peek().kind === 'end') this.fail('syntax', 'formula is empty', 0);
    const node = this.expr();
    const t = this.peek();
    if (t.kind !== 'end') this.fail('syntax', `unexpected ${describe(t)}`, t.pos);
    return node;
  }

  private enter(pos: number): void {
    if (++this.depth > MAX_DEPTH) this.fail('too_long', 'formula is nested too deeply', pos);
  }

  private expr(): Node {
    this.enter(this.peek().pos);
    let left = this.term();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && (t.text === '+' || t.text === '-')) {
        this.next();
        const l = left;
        const r = this.term();
        left = t.text === '+' ? (env) => l(env).add(r(env)) : (env) => l(env).sub(r(env));
      } else break;
    }
    this.depth--;
    return left;
  }

  private term(): Node {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && (t.text === '*' || t.text === '/')) {
        this.next();
        const l = left;
        const r = this.unary();
        if (t.text === '*') left = (env) => l(env).mul(r(env));
        else {
          const text = this.text;
          left = (env) => {
            const d = r(env);
            if (d.isZero()) throw new FormulaError('division_by_zero', 'division by zero', t.pos, text);
            return l(env).div(d);
          };
        }
      } else break;
    }
    return left;
  }

  private unary(): Node {
    const t = this.peek();
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) {
      this.next();
      this.enter(t.pos);
      const inner = this.unary();
      this.depth--;
      return t.text === '-' ? (env) => inner(env).neg() : inner;
    }
    return this.power();
  }

  private power(): Node {
    const base = this.primary();
    const t = this.peek();
    if (t.kind === 'op' && t.text === '^') {
      this.next();
      this.enter(t.pos);
      const exp = this.unary();
      this.depth--;
      const text = this.text;
      return (env) => {
        const e = exp(env);
        if (!e.isInteger() || e.abs().cmp(Rational.int(64)) > 0) {
          throw new FormulaError('bad_exponent', 'exponent must be a whole number between -64 and 64', t.pos, text);
        }
        const b = base(env);
        if (b.isZero() && e.isNegative()) throw new FormulaError('division_by_zero', 'division by zero', t.pos, text);
        return b.pow(Number(e.n));
      };
    }
    return base;
  }

  private primary(): Node {
    const t = this.next();
    if (t.kind === 'num') {
      const v = Rational.parse(t.text);
      return () => v;
    }
    if (t.kind === '(') {
      const inner = this.expr();
      this.expect(')', '")"');
      return inner;
    }
    if (t.kind === 'name') {
      if (this.peek().kind === '(') return this.call(t);
      const name = t.text;
      if (Object.hasOwn(FUNCTIONS, name)) this.fail('syntax', `function ${name} needs parentheses`, t.pos);
      if (this.allowed && !this.allowed.has(name)) this.fail('unknown_variable', `unknown variable "${name}"`, t.pos);
      this.variables.add(name);
      const text = this.text;
      return (env) => {
        const v = env.get(name);
        if (v === undefined) throw new FormulaError('missing_variable', `no value for variable "${name}"`, t.pos, text);
        return v;
      };
    }
    if (t.kind === 'end') this.fail('syntax', 'formula ends too early', t.pos);
    return this.fail('syntax', `unexpected ${describe(t)}`, t.pos);
  }

  private call(nameTok: Token): Node {
    const name = nameTok.text;
    if (!Object.hasOwn(FUNCTIONS, name)) this.fail('unknown_function', `unknown function "${name}"`, nameTok.pos);
    this.expect('(', '"("');
    const args: Node[] = [];
    if (this.peek().kind !== ')') {
      args.push(this.expr());
      while (this.peek().kind === ',') {
        this.next();
        args.push(this.expr());
      }
    }
    this.expect(')', '")" or ","');
    const spec = FUNCTIONS[name];
    if (args.length < spec.min || args.length > spec.max) {
      const want = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
      this.fail('arity', `${name} takes ${want} argument${spec.max === 1 ? '' : 's'}, got ${args.length}`, nameTok.pos);
    }
    const text = this.text;
    const [a, b] = args;
    switch (name) {
      case 'min':
        return (env) => args.map((f) => f(env)).reduce((x, y) => x.min(y));
      case 'max':
        return (env) => args.map((f) => f(env)).reduce((x, y) => x.max(y));
      case 'ceil':
        return (env) => Rational.int(a(env).ceil());
      case 'floor':
        return (env) => Rational.int(a(env).floor());
      case 'abs':
        return (env) => a(env).abs();
      default: // round
        return (env) => {
          const x = a(env);
          if (!b) return Rational.int(x.roundInt());
          const d = b(env);
          if (!d.isInteger() || d.abs().cmp(Rational.int(12)) > 0) {
            throw new FormulaError(
              'bad_digits',
              'round digits must be a whole number between -12 and 12',
              nameTok.pos,
              text,
            );
          }
          return x.round(Number(d.n));
        };
    }
  }
}

function describe(t: Token): string {
  if (t.kind === 'end') return 'end of formula';
  return `"${t.text}"`;
}

export interface CompiledFormula {
  /** The formula text as given. */
  text: string;
  /** Variable names the formula uses, in order of first appearance. */
  variables: string[];
  /** Exact value for the given variables; throws FormulaError (missing_variable, division_by_zero…). */
  evaluate(vars: Record<string, number | Rational> | ReadonlyMap<string, number | Rational>): Rational;
  /** evaluate() as a JS number (for display and validation only). */
  evaluateNumber(vars: Record<string, number | Rational>): number;
}

/**
 * Parse a quantity formula. With `allowedVariables`, any other name is an `unknown_variable`
 * error at parse time; without it, every name is accepted and listed in `variables`.
 * Throws FormulaError (syntax, unknown_function, unknown_variable, arity, too_long).
 */
export function compileFormula(text: string, allowedVariables?: Iterable<string>): CompiledFormula {
  if (typeof text !== 'string') throw new FormulaError('syntax', 'formula must be text', 0, String(text));
  if (text.length > MAX_FORMULA_LENGTH) {
    throw new FormulaError(
      'too_long',
      `formula is longer than ${MAX_FORMULA_LENGTH} characters`,
      MAX_FORMULA_LENGTH,
      text,
    );
  }
  const allowed = allowedVariables ? new Set(allowedVariables) : null;
  const parser = new Parser(text, tokenize(text), allowed);
  const root = parser.parseAll();
  const variables = [...parser.variables];
  const evaluate = (vars: Record<string, number | Rational> | ReadonlyMap<string, number | Rational>): Rational => {
    const env = new Map<string, Rational>();
    for (const name of variables) {
      let v: number | Rational | undefined;
      if (vars instanceof Map) v = vars.get(name);
      else if (Object.hasOwn(vars, name)) v = (vars as Record<string, number | Rational>)[name];
      if (v === undefined || v === null) continue;
      if (typeof v === 'number' && !Number.isFinite(v)) {
        throw new FormulaError('missing_variable', `variable "${name}" is not a finite number`, 0, text);
      }
      env.set(name, Rational.from(v as number | Rational));
    }
    return root(env);
  };
  return {
    text,
    variables,
    evaluate,
    evaluateNumber: (vars) => evaluate(vars).toNumber(),
  };
}

/** Variable names a formula uses (throws FormulaError when it does not parse). */
export function formulaVariables(text: string): string[] {
  return compileFormula(text).variables;
}
