// Job cost and item reports: what was estimated against what it cost, what was quoted and used (docs/reports.md). Each report is a file of its own; this file lists them in the order
// GET /v1/reports shows them (run.ts puts the sections together).
import { bidVsActual } from './bid-vs-actual.ts';
import { completedWork } from './completed-work.ts';
import { dataDump } from './data-dump.ts';
import { itemHistory } from './item-history.ts';
import { materialHistory } from './material-history.ts';
import { materialUsage } from './material-usage.ts';
import type { ReportDefinition } from './run.ts';

export const JOB_COST_REPORTS: readonly ReportDefinition[] = [
  bidVsActual,
  completedWork,
  dataDump,
  itemHistory,
  materialHistory,
  materialUsage,
];
