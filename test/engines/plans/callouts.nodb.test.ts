// The callout patterns and the schedule's vocabulary, on text built by hand
// (docs/plan-reading.md, "Callouts", "Plant schedule").
import { describe, expect, it } from 'vitest';
import { readCallouts, type SheetText, type TextLine } from '#engines/plans/index.ts';
import { headerKind, SCHEDULE_TITLE } from '#engines/plans/schedule-columns.ts';

/** A sheet whose lines are the given strings, words 40 px apart, lines 30 px apart. */
function sheet(lines: string[]): SheetText {
  const out: TextLine[] = lines.map((l, i) => {
    const words = l.split(' ').map((t, k) => ({ text: t, box: { x: 100 + 40 * k, y: 30 * i, width: 30, height: 16 } }));
    return { text: l, box: { x: 100, y: 30 * i, width: 40 * words.length, height: 16 }, words };
  });
  return { page: 1, width: 2000, height: 1000, hasTextLayer: true, images: 0, lines: out };
}

const read = (lines: string[]) =>
  readCallouts([sheet(lines)], ['AC', 'QV', 'IV']).map((c) => [c.code, c.count, c.pattern]);

describe('readCallouts', () => {
  it('reads the five patterns', () => {
    expect(read(['3 AC', 'AC (3)', 'AC(4)', 'AC-3', '(3) AC', '(2)QV', 'AC 3'])).toEqual([
      ['AC', 3, 'count_code'],
      ['AC', 3, 'code_paren_count'],
      ['AC', 4, 'code_paren_count'],
      ['AC', 3, 'code_dash_count'],
      ['AC', 3, 'paren_count_code'],
      ['QV', 2, 'paren_count_code'],
      ['AC', 3, 'code_count'],
    ]);
  });

  it('only schedule codes count; numbers with other words are not plants', () => {
    expect(read(['10 FT', 'NOTE 3', '(2) EXISTING TREES TO REMAIN', '2 ZZ', 'SCALE: 1" = 20\'', '6 FT WALK'])).toEqual(
      [],
    );
  });

  it('"CODE N" only alone on its line; in "2 AC 3 QV" the 3 belongs to QV', () => {
    expect(read(['2 AC 3 QV'])).toEqual([
      ['AC', 2, 'count_code'],
      ['QV', 3, 'count_code'],
    ]);
    expect(read(['SEE AC 3 DETAIL'])).toEqual([]);
    expect(read(['ac 5'])).toEqual([['AC', 5, 'code_count']]);
    expect(read(['0 AC', '1000 AC'])).toEqual([]);
  });

  it('positions are the callout text centre; excluded boxes are skipped', () => {
    const [c] = readCallouts([sheet(['x', '3 AC'])], ['AC']);
    expect([c.x, c.y]).toEqual([135, 38]);
    expect(
      readCallouts([sheet(['3 AC'])], ['AC'], { exclude: [{ page: 1, box: { x: 0, y: 0, width: 500, height: 20 } }] }),
    ).toEqual([]);
  });
});

describe('schedule vocabulary', () => {
  it('titles', () => {
    for (const t of ['PLANT SCHEDULE', 'Plant List', 'PLANT LEGEND', 'PLANTING SCHEDULE'])
      expect(SCHEDULE_TITLE.test(t), t).toBe(true);
    for (const t of ['IRRIGATION SCHEDULE', 'PLANTS']) expect(SCHEDULE_TITLE.test(t), t).toBe(false);
  });

  it('headers', () => {
    const cases: [string, string][] = [
      ['QTY', 'quantity'],
      ['Quantity', 'quantity'],
      ['KEY', 'code'],
      ['CODE', 'code'],
      ['SYM', 'symbol'],
      ['SYMBOL', 'symbol'],
      ['BOTANICAL NAME', 'botanical'],
      ['Scientific Name', 'botanical'],
      ['COMMON NAME', 'common'],
      ['SIZE', 'size'],
      ['CONT.', 'size'],
      ['CAL.', 'size'],
      ['REMARKS', 'remarks'],
    ];
    for (const [text, kind] of cases) expect(headerKind(text), text).toBe(kind);
    expect(headerKind('ACER')).toBeNull();
  });
});
