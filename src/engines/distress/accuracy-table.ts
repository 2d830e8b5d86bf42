// The accuracy report as markdown tables (docs/condition.md, "The built-in distress detector" keeps a copy; bench/ prints it).
import type { AccuracyReport } from './accuracy.ts';

function pct(v: number | null): string {
  return v === null ? '–' : `${Math.round(v * 100)}%`;
}

export function accuracyMarkdown(report: AccuracyReport): string {
  const lines = [
    `Distress types over ${report.images} generated images:`,
    '',
    '| type | TP | FP | FN | precision | recall | mean density error | severity agreement |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of report.byType) {
    lines.push(
      `| ${r.type} | ${r.truePositives} | ${r.falsePositives} | ${r.falseNegatives} | ${pct(r.precision)} | ${pct(r.recall)} | ${pct(r.meanDensityError)} | ${pct(r.severityAgreement)} |`,
    );
  }
  lines.push(
    '',
    '| category | images | every type right | pavement found right | false positives |',
    '|---|---:|---:|---:|---|',
  );
  for (const c of report.byCategory) {
    const fps = Object.entries(c.falsePositives)
      .map(([t, n]) => `${t} ×${n}`)
      .join(', ');
    lines.push(`| ${c.category} | ${c.images} | ${c.exact} | ${c.pavementRight} | ${fps || 'none'} |`);
  }
  return lines.join('\n');
}
