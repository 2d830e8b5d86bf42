// The words and judgements around the findings (docs/condition.md, "The built-in distress detector", "Where, view, quality,
// confidence"): pure functions, checked on hand-made regions and numbers.
import { describe, expect, it } from 'vitest';
import type { Region } from '#engines/distress/context.ts';
import { confidence, judgeQuality, judgeView, whereText } from '#engines/distress/describe.ts';

const box = (x0: number, y0: number, x1: number, y1: number, amount = 1): Region => ({
  amount,
  x0,
  y0,
  x1,
  y1,
  cx: (x0 + x1) / 2,
  cy: (y0 + y1) / 2,
});

describe('where', () => {
  it('names the quarter, side or span with north at the top', () => {
    expect(whereText([box(10, 10, 40, 40)], 300, 300)).toBe('north-west quarter');
    expect(whereText([box(250, 250, 290, 290)], 300, 300)).toBe('south-east quarter');
    expect(whereText([box(130, 130, 170, 170)], 300, 300)).toBe('in the centre');
    expect(whereText([box(250, 130, 290, 170)], 300, 300)).toBe('east side');
    expect(whereText([box(0, 140, 300, 160)], 300, 300)).toBe('across the centre');
    expect(whereText([box(0, 10, 300, 30)], 300, 300)).toBe('across the north');
    expect(whereText([box(10, 0, 30, 300)], 300, 300)).toBe('along the west side');
    expect(whereText([box(0, 0, 300, 300)], 300, 300)).toBe('throughout');
    expect(whereText([], 300, 300)).toBe('nowhere');
  });

  it('weights the centre by amount, so a big pothole outweighs a small one', () => {
    expect(whereText([box(10, 10, 60, 60, 2500), box(120, 120, 130, 130, 100)], 300, 300)).toBe('north-west quarter');
    // Spread over more than 60% of the width, two finds read as a span.
    expect(whereText([box(10, 10, 60, 60, 2500), box(260, 10, 270, 20, 100)], 300, 300)).toBe('across the north');
  });
});

describe('quality, view, confidence', () => {
  it('grades quality by size, exposure and sharpness', () => {
    expect(judgeQuality(1000, 110, 200)).toBe('good');
    expect(judgeQuality(320, 110, 200)).toBe('fair');
    expect(judgeQuality(1000, 110, 30)).toBe('fair');
    expect(judgeQuality(100, 110, 200)).toBe('poor');
    expect(judgeQuality(1000, 240, 200)).toBe('poor');
    expect(judgeQuality(1000, 110, 5)).toBe('poor');
  });

  it('reads the view from the scale', () => {
    expect(judgeView(true, 0.075)).toBe('aerial');
    expect(judgeView(true, 0.005)).toBe('ground');
    expect(judgeView(true, undefined)).toBe('ground');
    expect(judgeView(false, 0.075)).toBe('other');
  });

  it('lowers confidence for worse images, less pavement, an assumed scale and concrete, within 0.05–0.95', () => {
    const best = confidence('good', 100, false, 'asphalt');
    expect(best).toBe(0.85);
    expect(confidence('fair', 100, false, 'asphalt')).toBeLessThan(best);
    expect(confidence('good', 30, false, 'asphalt')).toBeLessThan(best);
    expect(confidence('good', 100, true, 'asphalt')).toBeLessThan(best);
    expect(confidence('good', 100, false, 'concrete')).toBeLessThan(best);
    expect(confidence('poor', 0, true, 'concrete')).toBeGreaterThanOrEqual(0.05);
  });
});
