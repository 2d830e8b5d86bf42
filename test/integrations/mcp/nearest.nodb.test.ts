// The nearest operation names call_operation answers for a name that is none
// (src/modules/integrations/mcp/search.ts: nearestNames, editDistance).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, nearestNames } from '#integrations/mcp/search.ts';

const NAMES = [
  'list_jobs',
  'get_job',
  'create_job',
  'move_job',
  'list_job_tags',
  'list_client_accounts',
  'create_client_account',
  'create_client_account_note',
  'create_contact',
  'create_task',
  'send_invoice',
  'get_invoice_pdf',
  'list_webhooks',
  'list_webhook_deliveries',
  'get_webhook_delivery',
];

describe('editDistance', () => {
  it('reference values: inserts, deletes, substitutions and a swap of neighbours are one edit each', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('job', '')).toBe(3);
    expect(editDistance('get_jobs', 'get_job')).toBe(1);
    expect(editDistance('get_jbo', 'get_job')).toBe(1);
    expect(editDistance('send_invoce', 'send_invoice')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('is symmetric, zero only between equal strings, and at most the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(editDistance(b, a)).toBe(d);
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
  });
});

describe('nearestNames', () => {
  it('a typo away: only those', () => {
    expect(nearestNames(NAMES, 'get_jobs')).toEqual(['get_job']);
    expect(nearestNames(NAMES, 'GET_JBO')).toEqual(['get_job']);
    expect(nearestNames(NAMES, 'send_invoce')).toEqual(['send_invoice']);
  });

  it('shared words, with the spec word read as the routes’ phrase, best first', () => {
    expect(nearestNames(NAMES, 'create_customer')[0]).toBe('create_client_account');
    expect(nearestNames(NAMES, 'list_webhook_delivery')[0]).toBe('list_webhook_deliveries');
    expect(nearestNames(NAMES, 'invoice_pdf')).toEqual(['get_invoice_pdf']);
  });

  it('a few at most, and nothing for a name near none', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (asked) => {
        const near = nearestNames(NAMES, asked);
        expect(near.length).toBeLessThanOrEqual(5);
        for (const name of near) expect(NAMES).toContain(name);
      }),
    );
    expect(nearestNames(NAMES, 'launch_rocket')).toEqual([]);
    expect(nearestNames(NAMES, '')).toEqual([]);
    expect(nearestNames(NAMES, 'get_job'.repeat(100))).toEqual([]);
  });
});
