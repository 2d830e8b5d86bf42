// Exact rational numbers over BigInt. The pricing engine never uses binary floating point for
// arithmetic: every input number is read from its shortest decimal text ("1.15" is exactly
// 115/100), every operation is exact, and rounding happens only where the rules say so
// (see docs/pricing.md, "Rounding").

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

const TEN = 10n;

export class Rational {
  /** numerator (sign carrier) */
  readonly n: bigint;
  /** denominator, always > 0, co-prime with n */
  readonly d: bigint;

  private constructor(n: bigint, d: bigint) {
    this.n = n;
    this.d = d;
  }

  static of(n: bigint, d: bigint = 1n): Rational {
    if (d === 0n) throw new RangeError('division by zero');
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    if (d === 1n) return new Rational(n, 1n);
    const g = gcd(n, d);
    return g === 1n ? new Rational(n, d) : new Rational(n / g, d / g);
  }

  static readonly ZERO = new Rational(0n, 1n);
  static readonly ONE = new Rational(1n, 1n);

  static int(v: number | bigint): Rational {
    return new Rational(BigInt(v), 1n);
  }

  /** Integer cents to dollars. */
  static cents(c: bigint | number): Rational {
    return Rational.of(BigInt(c), 100n);
  }

  /** Exact value of a decimal text: "12", "-0.075", ".5", "1e-7". */
  static parse(text: string): Rational {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
    if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new RangeError(`not a number: ${text}`);
    const [, sign, whole, frac = '', exp = '0'] = m;
    let n = BigInt((whole || '0') + frac);
    let d = TEN ** BigInt(frac.length);
    const e = Number(exp);
    if (e > 0) n *= TEN ** BigInt(e);
    else if (e < 0) d *= TEN ** BigInt(-e);
    return Rational.of(sign === '-' ? -n : n, d);
  }

  /** The decimal a JSON number was written as (its shortest round-trip text), exactly. */
  static from(v: number | bigint | Rational): Rational {
    if (v instanceof Rational) return v;
    if (typeof v === 'bigint') return Rational.int(v);
    if (!Number.isFinite(v)) throw new RangeError('number must be finite');
    if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return Rational.int(v);
    return Rational.parse(String(v));
  }

  add(o: Rational): Rational {
    if (this.d === 1n && o.d === 1n) return new Rational(this.n + o.n, 1n);
    return Rational.of(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Rational): Rational {
    return this.add(o.neg());
  }
  mul(o: Rational): Rational {
    return Rational.of(this.n * o.n, this.d * o.d);
  }
  div(o: Rational): Rational {
    if (o.n === 0n) throw new RangeError('division by zero');
    return Rational.of(this.n * o.d, this.d * o.n);
  }
  neg(): Rational {
    return new Rational(-this.n, this.d);
  }
  abs(): Rational {
    return this.n < 0n ? this.neg() : this;
  }
  /** Integer power (negative exponents allowed for non-zero bases). */
  pow(e: number): Rational {
    if (!Number.isInteger(e)) throw new RangeError('exponent must be an integer');
    if (e === 0) return Rational.ONE;
    if (e < 0) {
      if (this.n === 0n) throw new RangeError('division by zero');
      return Rational.of(this.d ** BigInt(-e), this.n ** BigInt(-e));
    }
    return Rational.of(this.n ** BigInt(e), this.d ** BigInt(e));
  }

  cmp(o: Rational): number {
    const l = this.n * o.d;
    const r = o.n * this.d;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  eq(o: Rational): boolean {
    return this.n === o.n && this.d === o.d;
  }
  isZero(): boolean {
    return this.n === 0n;
  }
  isNegative(): boolean {
    return this.n < 0n;
  }
  isInteger(): boolean {
    return this.d === 1n;
  }

  floor(): bigint {
    const q = this.n / this.d; // truncates toward zero
    return this.n < 0n && q * this.d !== this.n ? q - 1n : q;
  }
  ceil(): bigint {
    const q = this.n / this.d;
    return this.n > 0n && q * this.d !== this.n ? q + 1n : q;
  }
  /** Round half away from zero to an integer. */
  roundInt(): bigint {
    const twice = (this.abs().n * 2n + this.d) / (2n * this.d); // floor(|x| + 1/2)
    return this.n < 0n ? -twice : twice;
  }
  /** Round half away from zero to `digits` decimal places (digits may be negative: -1 = tens). */
  round(digits: number): Rational {
    if (digits >= 0) {
      const scale = TEN ** BigInt(digits);
      return Rational.of(this.mul(Rational.int(scale)).roundInt(), scale);
    }
    const scale = TEN ** BigInt(-digits);
    return Rational.int(this.div(Rational.int(scale)).roundInt() * scale);
  }
  /** Dollars to integer cents, half away from zero. */
  toCents(): bigint {
    return this.mul(Rational.int(100)).roundInt();
  }

  min(o: Rational): Rational {
    return this.cmp(o) <= 0 ? this : o;
  }
  max(o: Rational): Rational {
    return this.cmp(o) >= 0 ? this : o;
  }

  /** Fixed-point text, rounded half away from zero. */
  toFixed(digits: number): string {
    const r = this.round(digits);
    const scale = TEN ** BigInt(digits);
    const scaled = (r.n * scale) / r.d;
    const neg = scaled < 0n;
    const abs = (neg ? -scaled : scaled).toString().padStart(digits + 1, '0');
    const whole = abs.slice(0, abs.length - digits);
    const frac = abs.slice(abs.length - digits);
    return (neg ? '-' : '') + whole + (digits > 0 ? '.' + frac : '');
  }

  /** Nearest JS number (exact for values with few decimals, e.g. money). */
  toNumber(): number {
    if (this.d === 1n) return Number(this.n);
    const LIMIT = 9007199254740992n; // 2^53: both exact as doubles, and IEEE division rounds correctly
    if (this.n < LIMIT && -this.n < LIMIT && this.d < LIMIT) return Number(this.n) / Number(this.d);
    // 20 significant decimals then parse: the nearest double of the exact value.
    const v = Number(this.toFixed(20));
    return Object.is(v, -0) ? 0 : v;
  }

  toString(): string {
    return this.d === 1n ? this.n.toString() : `${this.n}/${this.d}`;
  }
}

export const R = Rational.from;
