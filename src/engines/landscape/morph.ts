// Morphology of binary masks (0 or 255 a pixel) with OpenCV's structuring elements, on masks
// packed 32 pixels to a word: a kernel row is the row of the mask grown sideways by the row's
// half-width (shifts and ORs of whole words), and the kernel is the OR of its rows. Gives what
// cv.dilate, cv.erode and cv.morphologyEx give (pixels beyond the image never count: nothing for
// a dilation, everything for an erosion), at a fraction of the cost of OpenCV's per-pixel loop.
// A mask pixel is 0 or 255.
import type { Cv, MatScope } from '#engines/distress/cv.ts';

/** A symmetric structuring element as the half-width of each of its rows (top to bottom). */
export type Element = Int32Array;

/** OpenCV's elliptic structuring element of `size` × `size` (odd) as row half-widths. */
export function ellipse(cv: Cv, s: MatScope, size: number): Element {
  const k = s.kernel(cv.MORPH_ELLIPSE, size);
  const d = k.data;
  const rows = new Int32Array(size);
  const c = size >> 1;
  for (let i = 0; i < size; i++) {
    let first = -1;
    let last = -1;
    for (let j = 0; j < size; j++)
      if (d[i * size + j]) {
        if (first < 0) first = j;
        last = j;
      }
    if (first < 0 || c - first !== last - c) throw new Error('a structuring element that is not symmetric');
    rows[i] = c - first;
  }
  return rows;
}

/**
 * Masks of one size packed 32 pixels to a word (bit b of a row's word j is pixel 32j + b), with
 * the morphology on them. Its scratch arrays are kept from call to call.
 */
export class Packed {
  /** Words a row. */
  readonly stride: number;
  /** The bits of the last word of a row that are pixels. */
  readonly last: number;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.stride = (w + 31) >> 5;
    const tail = w & 31;
    this.last = tail === 0 ? -1 : (1 << tail) - 1;
  }

  private readonly scratch: Int32Array[] = [];
  /** Scratch words (the rows grown sideways by 1, 2, … pixels). */
  private grownBy(d: number): Int32Array {
    while (this.scratch.length < d) this.scratch.push(new Int32Array(this.stride * this.h));
    return this.scratch[d - 1];
  }

  open(bits: Int32Array, e: Element): Int32Array {
    return this.dilate(this.erode(bits, e), e);
  }

  close(bits: Int32Array, e: Element): Int32Array {
    return this.erode(this.dilate(bits, e), e);
  }

  /** Whether any pixel of row y from x0 to x1 (exclusive) is set. */
  any(bits: Int32Array, y: number, x0: number, x1: number): boolean {
    if (x1 <= x0) return false;
    const o = y * this.stride;
    const j0 = x0 >> 5;
    const j1 = (x1 - 1) >> 5;
    for (let j = j0; j <= j1; j++) {
      let word = bits[o + j];
      if (j === j0) word &= -1 << (x0 & 31);
      if (j === j1 && (x1 & 31) !== 0) word &= (1 << (x1 & 31)) - 1;
      if (word !== 0) return true;
    }
    return false;
  }

  /** Whether pixel (x, y) is set. */
  static at(bits: Int32Array, stride: number, x: number, y: number): boolean {
    return ((bits[y * stride + (x >> 5)] >>> (x & 31)) & 1) === 1;
  }

  pack(m: Uint8Array): Int32Array {
    const { w, h, stride } = this;
    const out = new Int32Array(stride * h);
    for (let y = 0; y < h; y++) {
      const o = y * w;
      const ow = y * stride;
      for (let j = 0; j < stride; j++) {
        const x0 = o + (j << 5);
        const x1 = Math.min(x0 + 32, o + w);
        let word = 0;
        if (x1 - x0 === 32)
          // A mask pixel is 0 or 255: its lowest bit is the pixel.
          for (let b = 0; b < 32; b += 4)
            word |=
              ((m[x0 + b] & 1) |
                ((m[x0 + b + 1] & 1) << 1) |
                ((m[x0 + b + 2] & 1) << 2) |
                ((m[x0 + b + 3] & 1) << 3)) <<
              b;
        else for (let x = x0, b = 0; x < x1; x++, b++) if (m[x] !== 0) word |= 1 << b;
        out[ow + j] = word;
      }
    }
    return out;
  }

  unpack(bits: Int32Array, m: Uint8Array): void {
    const { w, h, stride } = this;
    for (let y = 0; y < h; y++) {
      const o = y * w;
      const ow = y * stride;
      for (let j = 0; j < stride; j++) {
        const x0 = o + (j << 5);
        const x1 = Math.min(x0 + 32, o + w);
        const word = bits[ow + j];
        if (word === 0) m.fill(0, x0, x1);
        else if (word === -1) m.fill(255, x0, x1);
        else for (let x = x0, b = 0; x < x1; x++, b++) m[x] = (word >>> b) & 1 ? 255 : 0;
      }
    }
  }

  /** Every pixel set that has a set pixel under the element centred on it. Pixels off the image count as clear. */
  dilate(src: Int32Array, element: Element): Int32Array {
    const { h, stride, last } = this;
    const k = element.length;
    const r = k >> 1;
    let widest = 0;
    for (let i = 0; i < k; i++) widest = Math.max(widest, element[i]);
    // grown[d]: each row grown sideways by d pixels (padding bits may be dirty; only src is shifted).
    const grown: Int32Array[] = [src];
    for (let d = 1; d <= widest; d++) {
      const prev = grown[d - 1];
      const g = this.grownBy(d);
      const back = 32 - d;
      for (let y = 0; y < h; y++) {
        const o = y * stride;
        for (let j = 0; j < stride; j++) {
          const word = src[o + j];
          // Bit x takes bit x + d (from the right) and bit x − d (from the left).
          let v = prev[o + j] | (word >>> d) | (word << d);
          if (j + 1 < stride) v |= src[o + j + 1] << back;
          if (j > 0) v |= src[o + j - 1] >>> back;
          g[o + j] = v;
        }
      }
      grown.push(g);
    }
    const out = new Int32Array(src.length);
    for (let y = 0; y < h; y++) {
      const o = y * stride;
      for (let i = 0; i < k; i++) {
        const yy = y + i - r;
        if (yy < 0 || yy >= h) continue;
        const g = grown[element[i]];
        const oo = yy * stride;
        for (let j = 0; j < stride; j++) out[o + j] |= g[oo + j];
      }
      out[o + stride - 1] &= last;
    }
    return out;
  }

  /** Every pixel kept whose element lies wholly in the set. Pixels off the image count as set. */
  erode(src: Int32Array, element: Element): Int32Array {
    const { h, stride, last } = this;
    const inverse = new Int32Array(src.length);
    for (let i = 0; i < src.length; i++) inverse[i] = ~src[i];
    for (let y = 0; y < h; y++) inverse[y * stride + stride - 1] &= last;
    const out = this.dilate(inverse, element);
    for (let i = 0; i < out.length; i++) out[i] = ~out[i];
    for (let y = 0; y < h; y++) out[y * stride + stride - 1] &= last;
    return out;
  }
}
