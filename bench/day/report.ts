// The busy day's markdown report: the engines side by side, the day per kind of call, the webhook
// lag, the server's memory, the sizing steps and the figure they give, and every error seen.
import os from 'node:os';
import { fmt as fmtNumber, revision } from '../load.ts';
import { MODE_LABEL } from '../mode.ts';
import type { EngineResult, Plan, StepResult } from './engine-run.ts';
import type { LagFigures } from './load.ts';
import { type Group, KINDS, type Kind, MIX, READ_P99_TARGET_MS, TYPICAL, WORKSPACES } from './mix.ts';
import { SLOW_MS } from './receivers.ts';

const NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
/** A figure, or a dash where there is none (a percentile of no calls arrives as null over IPC). */
export const fmt = (n: number | null, digits = 0) => (n === null || !Number.isFinite(n) ? '–' : fmtNumber(n, digits));
export const ms = (n: number | null) => fmt(n, 2);
const mib = (bytes: number) => fmt(bytes / 2 ** 20);
const GROUP_LABELS: Record<Group, string> = {
  read: '**all reads**',
  write: 'all writes',
  export: 'all exports',
  upload: 'all uploads',
};

/** A row of cells per engine, under one label. */
const row = (label: string, cells: string[][]) => `| ${label} | ${cells.map((c) => c.join(' | ')).join(' | ')} |`;
const header = (first: string, columns: string[], results: EngineResult[]) => [
  `| ${first} | ${results.map((r) => columns.map((c) => `${NAMES[r.engine]} ${c}`).join(' | ')).join(' | ')} |`,
  `|---|${results.map(() => columns.map(() => '---:').join('|')).join('|')}|`,
];

function dayTable(results: EngineResult[]): string[] {
  const days = results.map((r) => r.steps[0]!);
  const lines = header('Kind of call', ['calls/s', 'p50 ms', 'p99 ms', '4xx (designed)', 'errors'], results);
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const cells = days.map((d) => {
      const k = d.phase.kinds.find((x) => x.kind === kind);
      return k
        ? [fmt(k.perSecond, 2), ms(k.p50), ms(k.p99), fmt(k.designed), fmt(k.errors)]
        : ['–', '–', '–', '–', '–'];
    });
    lines.push(row(KINDS[kind].label, cells));
  }
  for (const group of Object.keys(GROUP_LABELS) as Group[])
    lines.push(
      row(
        GROUP_LABELS[group],
        days.map((d) => {
          const g = d.phase.groups[group];
          return [fmt(g.perSecond, 2), ms(g.p50), ms(g.p99), '', fmt(g.errors)];
        }),
      ),
    );
  return lines;
}

const lag = (l: LagFigures) => (l.deliveries === 0 ? ['0', '–', '–'] : [fmt(l.deliveries), fmt(l.p50), fmt(l.p99)]);

function webhookTable(results: EngineResult[]): string[] {
  const day = results.map((r) => r.webhooks[0]!);
  return [
    ...header('Receiver (events written during the day)', ['delivered', 'lag p50 ms', 'lag p99 ms'], results),
    row(
      'fast: job and proposal events',
      day.map((w) => lag(w.fast)),
    ),
    row(
      `slow (answers after ${SLOW_MS / 1000} s): job and proposal events`,
      day.map((w) => lag(w.slow)),
    ),
    row(
      'fast: business events (created_at to the second: lag ±1 s)',
      day.map((w) => lag(w.business)),
    ),
    row(
      'failing (answers 500): attempts received',
      day.map((w) => [fmt(w.failingAttempts), '', '']),
    ),
  ];
}

function deliveryCounts(results: EngineResult[]): string[] {
  const keys = [...new Set(results.flatMap((r) => r.deliveries.map((d) => `${d.receiver}|${d.status}`)))].sort();
  return [
    ...header('Receiver, delivery status', ['deliveries'], results),
    ...keys.map((k) => {
      const [receiver, status] = k.split('|');
      return row(
        `${receiver}, ${status}`,
        results.map((r) => [fmt(r.deliveries.find((d) => `${d.receiver}|${d.status}` === k)?.n ?? 0)]),
      );
    }),
  ];
}

function memory(results: EngineResult[]): string[] {
  const lines = header('Server RSS, MiB', ['RSS'], results);
  const at = (label: string, value: (r: EngineResult) => number) =>
    lines.push(
      row(
        label,
        results.map((r) => [mib(value(r))]),
      ),
    );
  at('just started (idle)', (r) => r.rssAtStart);
  at('day: lowest', (r) => r.steps[0]!.server.rssMin);
  at('day: highest', (r) => r.steps[0]!.server.rssMax);
  at('day: at its end', (r) => r.steps[0]!.server.rssEnd);
  at('highest of the whole run (sizing included)', (r) => Math.max(...r.rssSeries.map((s) => s.rss)));
  for (const r of results)
    if (r.restarts.length > 0)
      lines.push(
        '',
        `${NAMES[r.engine]}'s server was restarted to add workspaces (one writer at a time) before the steps of ` +
          `${r.restarts.map((x) => `${fmt(x.before)} (${mib(x.rss)} MiB just after)`).join(', ')} workspaces; the highest RSS above spans them.`,
      );
  lines.push('', 'Through the day, every 30 s (MiB):', '');
  for (const r of results) {
    const day = r.rssSeries.filter((s) => s.phase === 'day');
    const t0 = day[0]?.s ?? 0;
    const series: string[] = [];
    let next = 0;
    for (const s of day)
      if (s.s - t0 >= next) {
        series.push(`${fmt(s.s - t0)} s ${mib(s.rss)}`);
        next += 30;
      }
    lines.push(`- ${NAMES[r.engine]}: ${series.join(', ')}`);
  }
  return lines;
}

function sizingTable(results: EngineResult[]): string[] {
  // One row per workspace count (the engines' searches try different ones); a count tried again
  // (to confirm it) has a row of its own.
  const label = (s: StepResult) => `${fmt(s.phase.workspaces)}${s.phase.name === 'again' ? ' (again)' : ''}`;
  const rows = [
    ...new Map(
      results.flatMap((r) => r.steps.map((s) => [label(s), s.phase.workspaces + (s.phase.name === 'again' ? 0.5 : 0)])),
    ),
  ].sort((a, b) => a[1] - b[1]);
  const cells = (r: EngineResult, s: StepResult | undefined) =>
    s
      ? [
          fmt(s.phase.kinds.reduce((a, k) => a + k.perSecond, 0)),
          ms(s.phase.groups.read.p50),
          ms(s.phase.groups.read.p99),
          fmt(r.webhooks[r.steps.indexOf(s)]?.fast.p99 ?? null),
          fmt(s.server.cores, 2),
          s.load,
          s.passed ? 'met' : `**no**: ${s.why}`,
        ]
      : ['', '', '', '', '', '', ''];
  return [
    ...header(
      'Workspaces',
      [
        'calls/s',
        'read p50 ms',
        'read p99 ms',
        'webhook lag p99 ms',
        'server cores',
        'load avg',
        `p99 < ${READ_P99_TARGET_MS} ms`,
      ],
      results,
    ),
    ...rows.map(([name]) =>
      row(
        name,
        results.map((r) =>
          cells(
            r,
            r.steps.find((s) => label(s) === name),
          ),
        ),
      ),
    ),
  ];
}

function errors(results: EngineResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const failed = r.steps.flatMap((s) =>
      s.phase.kinds
        .filter((k) => k.errors > 0)
        .map((k) => `${s.phase.name}: ${k.label}: ${k.errors} (${k.samples.join(' / ')})`),
    );
    const flow = r.steps.flatMap((s) => s.phase.flowErrors.map((e) => `${s.phase.name}: ${e}`));
    const late = r.steps.filter((s) => s.phase.dropped + s.phase.unfinished > 0);
    lines.push(
      `- ${NAMES[r.engine]}: ${failed.length + flow.length === 0 ? 'no failed calls' : `failed calls: ${[...failed, ...flow].join('; ')}`}; ` +
        `the server's log: ${r.log.fiveXx} answers of 5xx, ${r.log.errors} lines at error level` +
        (r.log.samples.length ? ` (${r.log.samples.map((s) => `\`${s.slice(0, 300)}\``).join('; ')})` : '') +
        (late.length
          ? `; left behind: ${late.map((s) => `${s.phase.name} ${s.phase.dropped} dropped, ${s.phase.unfinished} unfinished`).join('; ')}`
          : ''),
    );
  }
  return lines;
}

export function dayReport(results: EngineResult[], plan: Plan): string {
  const perMinute = MIX.reduce((a, m) => a + m.perMinute, 0);
  const day = results.map((r) => r.steps[0]!);
  const sizing = results.map((r) => {
    if (r.carried === null) return `${NAMES[r.engine]}: not even ${fmt(r.failedAt ?? 0)} workspaces`;
    // The carried count's last run: its slowest kind of read, the figure an operator watches first.
    const at = r.steps.filter((s) => s.passed && s.phase.workspaces === r.carried).at(-1)!;
    const slowest = at.phase.kinds.filter((k) => k.group === 'read').sort((a, b) => (b.p99 ?? 0) - (a.p99 ?? 0))[0];
    return (
      `${NAMES[r.engine]}: **${fmt(r.carried)} workspaces** (${r.failedAt === null ? 'the largest count tried' : `${fmt(r.failedAt)} did not`}); ` +
      `there reads' p99 was ${ms(at.phase.groups.read.p99)} ms, the slowest kind of read ${slowest ? `${slowest.label} at ${ms(slowest.p99)} ms` : '–'}`
    );
  });
  return [
    `# A busy day${MODE_LABEL}`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${revision()}, Node ${process.version}, ${os.cpus().length} vCPU (${os.cpus()[0]?.model ?? 'unknown'}).`,
    ...results.map(
      (r) =>
        `${NAMES[r.engine]}: ${r.describe}; provisioned in ${fmt(r.provisionS)} s, seeded through the API in ${fmt(r.seedS)} s; ${fmt(r.records.workspaces)} workspaces in the end; 1-minute load average ${r.loadBefore} before, ${r.loadAfter} after.`,
    ),
    '',
    `A workspace: ${fmt(TYPICAL.customers)} customers each with a site, ${fmt(TYPICAL.jobs)} jobs; the day's also ${TYPICAL.estimates} estimates of 3 lines, ` +
      `${TYPICAL.proposals} proposals sent, ${TYPICAL.onlineInvoices} online and ${TYPICAL.checkInvoices} check invoices; ` +
      `its busy hour ${fmt(perMinute, 1)} flows a minute (bench/day/mix.ts). The day: ${WORKSPACES} workspaces for ${plan.dayS} s after ${plan.warmupS} s of warm-up; ` +
      `sizing steps ${plan.stepS} s each.`,
    '',
    `## The day: ${WORKSPACES} workspaces`,
    '',
    ...dayTable(results),
    '',
    ...results.map(
      (r, i) =>
        `${NAMES[r.engine]}: the server used ${fmt(day[i]!.server.cores, 2)} cores; the load process ${fmt(day[i]!.phase.loadCpuS / day[i]!.phase.seconds, 2)} cores, ` +
        `starting flows ${ms(day[i]!.phase.startLagP99)} ms late at p99.`,
    ),
    '',
    '## Webhook delivery lag (event written → delivery received)',
    '',
    ...webhookTable(results),
    '',
    'Every delivery in the database at the end (the whole run, sizing steps included):',
    '',
    ...deliveryCounts(results),
    '',
    '## Server memory',
    '',
    ...memory(results),
    '',
    `## Sizing: workspaces carried with reads' p99 under ${READ_P99_TARGET_MS} ms`,
    '',
    ...sizingTable(results),
    '',
    ...sizing.map((s) => `- ${s}`),
    '',
    '## Errors',
    '',
    ...errors(results),
    '',
  ].join('\n');
}
