// Box arithmetic in sheet pixels, shared by the text, schedule, callout and symbol readers.
import type { SheetBox } from './types.ts';

export function union(boxes: SheetBox[]): SheetBox {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

export function fromCorners(x0: number, y0: number, x1: number, y1: number): SheetBox {
  return { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
}

export function centre(b: SheetBox): { x: number; y: number } {
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Whether b's centre lies in `outer` (grown by `margin` on every side). */
export function centreInside(b: SheetBox, outer: SheetBox, margin = 0): boolean {
  const c = centre(b);
  return (
    c.x >= outer.x - margin &&
    c.x <= outer.x + outer.width + margin &&
    c.y >= outer.y - margin &&
    c.y <= outer.y + outer.height + margin
  );
}

/** Whether b lies wholly in `outer` (grown by `margin`). */
export function within(b: SheetBox, outer: SheetBox, margin = 0): boolean {
  return (
    b.x >= outer.x - margin &&
    b.y >= outer.y - margin &&
    b.x + b.width <= outer.x + outer.width + margin &&
    b.y + b.height <= outer.y + outer.height + margin
  );
}

/** Rounded to tenths of a pixel: answers stay readable and stable across runs. */
export function tidy(b: SheetBox): SheetBox {
  const r = (v: number) => Math.round(v * 10) / 10;
  return { x: r(b.x), y: r(b.y), width: r(b.width), height: r(b.height) };
}
