// GET /v1/reports/{key}/csv (docs/reports.md, "Downloads"): a report's tables as spreadsheets open
// them. The run is the same as GET /v1/reports/{key} with the same parameters; `table` picks one
// table, answered as one CSV; without it a report of one table is that CSV and a report of several
// is a ZIP of one CSV per table. Each CSV has a header line of the columns' labels, then the rows
// shown (rows_limit applies as in the run), then the table's total line when it has one.
import yazl from 'yazl';
import type { ServiceContext } from '#platform/context.ts';
import { csvText } from '#platform/csv.ts';
import { badRequest } from '#platform/errors.ts';
import { runReport } from './run.ts';
import type { ReportQueryInput } from './run-query.ts';
import type { Row, Table } from './run-result.ts';

export interface ReportFile {
  fileName: string;
  contentType: 'text/csv; charset=utf-8' | 'application/zip';
  body: Buffer;
}

/** Money with its two decimals (1040 is 1040.00), every other value as it is. */
function cell(row: Row, key: string, kind: string): unknown {
  const v = row[key];
  return kind === 'money' && typeof v === 'number' ? v.toFixed(2) : v;
}

function tableCsv(t: Table): string {
  const rows = [...t.rows, ...(t.total ? [t.total] : [])];
  return csvText([t.columns.map((c) => c.label), ...rows.map((r) => t.columns.map((c) => cell(r, c.key, c.kind)))]);
}

function zipOf(entries: { name: string; text: string }[], mtime: Date): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.from(e.text, 'utf8'), e.name, { mtime });
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    zip.outputStream.on('data', (b: Buffer) => parts.push(b));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    zip.outputStream.on('error', reject);
  });
}

export async function reportFile(
  ctx: ServiceContext,
  key: string,
  q: ReportQueryInput & { table?: string },
): Promise<ReportFile> {
  const { table, ...run } = q;
  const result = await runReport(ctx, key, run);
  const base = `${result.key}-${result.start}-to-${result.end}`;
  const csv = (t: Table): ReportFile => ({
    fileName: `${base}-${t.key}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: Buffer.from(tableCsv(t), 'utf8'),
  });
  if (table !== undefined) {
    const picked = result.tables.find((t) => t.key === table);
    if (!picked)
      throw badRequest(`The ${key} report has no table ${table}`, {
        code: 'invalid_request',
        field: 'table',
        message: `Its tables are ${result.tables.map((t) => t.key).join(', ')}`,
      });
    return csv(picked);
  }
  if (result.tables.length === 1) return csv(result.tables[0]!);
  const body = await zipOf(
    result.tables.map((t) => ({ name: `${base}-${t.key}.csv`, text: tableCsv(t) })),
    new Date(),
  );
  return { fileName: `${base}.zip`, contentType: 'application/zip', body };
}
