import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileFormula, formulaVariables, FormulaError, Rational } from '#engines/pricing/index.ts';

const val = (text: string, vars: Record<string, number> = {}) => compileFormula(text).evaluate(vars).toFixed(6);
function errorOf(text: string, allowed?: string[]): FormulaError {
  try {
    compileFormula(text, allowed).evaluate({ quantity: 10 });
  } catch (e) {
    expect(e).toBeInstanceOf(FormulaError);
    return e as FormulaError;
  }
  throw new Error(`no error for ${text}`);
}

describe('quantity formulas: values', () => {
  it('follows operator precedence and associativity', () => {
    expect(val('1 + 2 * 3')).toBe('7.000000');
    expect(val('(1 + 2) * 3')).toBe('9.000000');
    expect(val('10 - 4 - 3')).toBe('3.000000');
    expect(val('24 / 4 / 3')).toBe('2.000000');
    expect(val('2 ^ 3 ^ 2')).toBe('512.000000');
    expect(val('2 ** 3')).toBe('8.000000');
    expect(val('-2 ^ 2')).toBe('-4.000000');
    expect(val('(-2) ^ 2')).toBe('4.000000');
    expect(val('2 ^ -2')).toBe('0.250000');
    expect(val('--3 + +1')).toBe('4.000000');
    expect(val('2 * -3')).toBe('-6.000000');
  });

  it('is exact: no binary floating point', () => {
    expect(compileFormula('0.1 + 0.2').evaluate({}).eq(Rational.parse('0.3'))).toBe(true);
    expect(compileFormula('1 / 3 * 3').evaluate({}).eq(Rational.ONE)).toBe(true);
    expect(val('round(1.005, 2)')).toBe('1.010000');
  });

  it('evaluates the functions', () => {
    expect(val('min(3, 1, 2)')).toBe('1.000000');
    expect(val('max(3, 1, 2)')).toBe('3.000000');
    expect(val('ceil(7.1)')).toBe('8.000000');
    expect(val('ceil(-7.1)')).toBe('-7.000000');
    expect(val('floor(7.9)')).toBe('7.000000');
    expect(val('floor(-7.1)')).toBe('-8.000000');
    expect(val('abs(-4.5)')).toBe('4.500000');
    expect(val('round(2.5)')).toBe('3.000000');
    expect(val('round(-2.5)')).toBe('-3.000000');
    expect(val('round(1234.5678, 2)')).toBe('1234.570000');
    expect(val('round(1250, -2)')).toBe('1300.000000');
  });

  it('uses variables: quantity and named line inputs', () => {
    const f = compileFormula('ceil(quantity * depth_in * 110 / 2000 / truck_tons) + days * 0');
    expect(f.variables).toEqual(['quantity', 'depth_in', 'truck_tons', 'days']);
    expect(f.evaluate({ quantity: 1200, depth_in: 2, truck_tons: 18, days: 3 }).toFixed(0)).toBe('8');
    expect(formulaVariables('quantity / 9 + quantity')).toEqual(['quantity']);
    expect(f.evaluateNumber({ quantity: 1200, depth_in: 2, truck_tons: 18, days: 3 })).toBe(8);
  });

  it('agrees with the obvious integer arithmetic (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 1, max: 50 }),
        (a, b, c) => {
          const got = compileFormula('a * b - (a + b) / c + quantity').evaluate({ a, b, c, quantity: 7 });
          const want = Rational.int(a * b)
            .sub(Rational.of(BigInt(a + b), BigInt(c)))
            .add(Rational.int(7));
          return got.eq(want);
        },
      ),
    );
  });
});

describe('quantity formulas: errors', () => {
  it('reports syntax errors with a position', () => {
    const e = errorOf('(1 + 2');
    expect(e.code).toBe('syntax');
    expect(e.position).toBe(6);
    expect(errorOf('1 +').code).toBe('syntax');
    expect(errorOf('').code).toBe('syntax');
    expect(errorOf('1 2').code).toBe('syntax');
    expect(errorOf('1..2').code).toBe('syntax');
    expect(errorOf('min(1,)').code).toBe('syntax');
    expect(errorOf('"a"').code).toBe('syntax');
    expect(errorOf('quantity;1').position).toBe(8);
  });

  it('rejects unknown functions and wrong argument counts', () => {
    const e = errorOf('2 * sqrt(quantity)');
    expect(e.code).toBe('unknown_function');
    expect(e.position).toBe(4);
    expect(e.message).toMatch(/sqrt/);
    expect(errorOf('ceil(1, 2)').code).toBe('arity');
    expect(errorOf('min()').code).toBe('arity');
    expect(errorOf('round(1, 2, 3)').code).toBe('arity');
    expect(errorOf('ceil + 1').code).toBe('syntax');
  });

  it('rejects unknown variables when given the allowed list, and missing values at evaluation', () => {
    const e = errorOf('quantity * depth', ['quantity']);
    expect(e.code).toBe('unknown_variable');
    expect(e.position).toBe(11);
    expect(errorOf('quantity * depth').code).toBe('missing_variable');
  });

  it('rejects bad exponents, digits and division by zero', () => {
    expect(errorOf('2 ^ 0.5').code).toBe('bad_exponent');
    expect(errorOf('2 ^ 100').code).toBe('bad_exponent');
    expect(errorOf('round(1, 0.5)').code).toBe('bad_digits');
    expect(errorOf('quantity / (quantity - 10)').code).toBe('division_by_zero');
    expect(errorOf('0 ^ -1').code).toBe('division_by_zero');
  });

  it('gives no access to globals or object properties', () => {
    for (const text of [
      'process.exit()',
      'constructor.constructor("return 1")()',
      'this',
      'globalThis',
      '__proto__',
      'a[0]',
      'x => 1',
      '`1`',
      'quantity; process',
    ]) {
      expect(() => compileFormula(text, ['quantity']), text).toThrow(FormulaError);
    }
    // without an allowed list a name is just a variable; it never resolves to anything inherited
    expect(errorOf('constructor').code).toBe('missing_variable');
    expect(errorOf('toString').code).toBe('missing_variable');
    expect(errorOf('process.exit()').code).toBe('syntax');
    expect(() => compileFormula('hasOwnProperty(1)')).toThrow(/unknown function/);
    expect(
      compileFormula('__proto__ + 1')
        .evaluate({ ['__proto__']: 1 } as Record<string, number>)
        .toFixed(0),
    ).toBe('2');
  });

  it('limits length and nesting', () => {
    expect(errorOf('1+'.repeat(300) + '1').code).toBe('too_long');
    expect(errorOf('('.repeat(100) + '1' + ')'.repeat(100)).code).toBe('too_long');
  });

  it('never throws anything but FormulaError on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        try {
          compileFormula(text).evaluate({ quantity: 3 });
        } catch (e) {
          return e instanceof FormulaError;
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});
