// What the assessment report and the capital plan pages both show of a site walk's findings: a
// service's color swatch, quantities with their units, severity badges and dates. Colors are drawn
// as SVG fills, not style attributes: the pages' policy allows only the nonce'd stylesheet, and a
// presentation attribute is not a style.
import { html, type Html } from '#platform/html.ts';
import type { SeverityCounts } from './rollup.ts';

const UNIT_NAMES: Record<string, string> = { EA: 'ea', SF: 'sq ft', LF: 'ft', CY: 'cu yd' };

/** 1,234.5 — at most two decimals, grouped. */
const AMOUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
export const amount = (value: number) => AMOUNT.format(value);

export const unitName = (unit: string) => UNIT_NAMES[unit] ?? unit;

/** "420 ft, 216 sq ft"; empty when nothing was measured. */
export const quantitiesText = (quantities: readonly { unit: string; value: number }[]) =>
  quantities.map((q) => `${amount(q.value)} ${unitName(q.unit)}`).join(', ');

/** A #rrggbb square. */
export const swatch = (color: string): Html =>
  html`<svg class="swatch" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true"><rect width="12" height="12" rx="2" fill="${color}"/></svg>`;

const SEVERITY_NAMES = { low: 'Low', medium: 'Medium', high: 'High' } as const;

export const severityBadge = (severity: keyof SeverityCounts, count?: number): Html =>
  html`<span class="badge sev-${severity}">${count === undefined ? SEVERITY_NAMES[severity] : `${count} ${SEVERITY_NAMES[severity].toLowerCase()}`}</span>`;

/** The non-zero severity counts as badges, high first; "None" when all are zero. */
export function severityCounts(counts: SeverityCounts): Html {
  const shown = (['high', 'medium', 'low'] as const).filter((s) => counts[s] > 0);
  if (shown.length === 0) return html`<span class="muted">None</span>`;
  return html`<span class="sev-counts">${shown.map((s) => severityBadge(s, counts[s]))}</span>`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "March 3, 2026" for a YYYY-MM-DD day. */
export const longDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
