// The re-bid rules with no database (src/modules/operations/rebids/rules.ts): due dates, where a
// re-bid stands, which cycle a completed work order counts for, and the key form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDaysTo,
  addYears,
  matchCycle,
  rebidStatus,
  serviceKey,
  siteKey,
  siteOfKey,
} from '#src/modules/operations/rebids/rules.ts';

describe('addYears', () => {
  it('keeps the day; 29 February lands on 28 February in a common year', () => {
    expect(addYears('2024-05-17', 2)).toBe('2026-05-17');
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
    expect(addYears('2099-12-31', 1)).toBe('2100-12-31');
  });

  it('always gives a real date later by about the years asked', () => {
    const day = fc.date({ min: new Date('2000-01-01'), max: new Date('2090-12-31'), noInvalidDate: true });
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 10 }), (d, years) => {
        const date = d.toISOString().slice(0, 10);
        const later = addYears(date, years);
        expect(new Date(`${later}T00:00:00Z`).toISOString().slice(0, 10)).toBe(later);
        const days = (Date.parse(later) - Date.parse(date)) / 86_400_000;
        expect(days).toBeGreaterThanOrEqual(365 * years - 1);
        expect(days).toBeLessThanOrEqual(366 * years);
      }),
    );
  });
});

describe('rebidStatus', () => {
  const today = '2026-06-01';
  it('is due within 90 days or overdue, upcoming before', () => {
    expect(rebidStatus('2026-05-01', today, null)).toBe('due');
    expect(rebidStatus(addDaysTo(today, 90), today, null)).toBe('due');
    expect(rebidStatus(addDaysTo(today, 91), today, null)).toBe('upcoming');
  });
  it('a snooze counts while its date is after today; not doing always', () => {
    expect(rebidStatus('2026-05-01', today, { status: 'snoozed', snooze_until: '2026-06-02' })).toBe('snoozed');
    expect(rebidStatus('2026-05-01', today, { status: 'snoozed', snooze_until: today })).toBe('due');
    expect(rebidStatus('2030-05-01', today, { status: 'not_doing', snooze_until: null })).toBe('not_doing');
    expect(rebidStatus('2026-05-01', today, { status: 'open', snooze_until: null })).toBe('due');
  });
});

describe('matchCycle', () => {
  const cycles = [
    { id: 1, service: 'Sealcoating' },
    { id: 2, service: 'Striping' },
    { id: 3, service: 'Crack sealing' },
    { id: 4, service: 'Sealing' },
  ];
  it('reads the estimate line name, then its service type, then the title, then the phase', () => {
    expect(matchCycle(cycles, { lineName: 'Striping, 4" lines', lineServiceType: 'Sealcoating', title: 'x' })?.id).toBe(
      2,
    );
    expect(matchCycle(cycles, { lineName: 'Line work', lineServiceType: 'sealcoating', title: 'x' })?.id).toBe(1);
    expect(matchCycle(cycles, { title: 'Day 2: STRIPING the lot' })?.id).toBe(2);
    expect(matchCycle(cycles, { title: 'Visit', phase: 'sealcoating' })?.id).toBe(1);
  });
  it('matches whole words only, the longest service first, and answers null when none is named', () => {
    expect(matchCycle(cycles, { title: 'Crack sealing on the east lot' })?.id).toBe(3);
    expect(matchCycle(cycles, { title: 'Sealing joints' })?.id).toBe(4);
    expect(matchCycle(cycles, { title: 'Sealcoatings' })).toBeNull();
    expect(matchCycle(cycles, { title: 'Mill and overlay', phase: null, lineName: null })).toBeNull();
    expect(matchCycle([], { title: 'Sealcoating' })).toBeNull();
  });
  it('serviceKey folds case, punctuation and spacing', () => {
    expect(serviceKey('  Crack-Sealing,  2 coats ')).toBe('crack sealing 2 coats');
  });
});

describe('re-bid keys', () => {
  it('loc:<site_id> round-trips; anything else names no site', () => {
    expect(siteOfKey(siteKey(42))).toBe(42);
    for (const bad of ['42', 'loc:', 'loc:0', 'loc:01', 'loc:-1', 'loc:4294967296', 'LOC:1', 'loc:1 ', '12 Main St'])
      expect(siteOfKey(bad)).toBeNull();
  });
});
