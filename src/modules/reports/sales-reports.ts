// Sales reports: what was bid, to whom, where, and what it became (docs/reports.md). Each report is a file of its own; this file lists them in the order
// GET /v1/reports shows them (run.ts puts the sections together).
import type { ReportDefinition } from './run.ts';
import { bidSchedule } from './bid-schedule.ts';
import { estimateTotals } from './estimate-totals.ts';
import { marketAnalysis } from './market-analysis.ts';
import { topCustomers } from './top-customers.ts';
import { workType } from './work-type.ts';
import { zipCode } from './zip-code.ts';

export const SALES_REPORTS: readonly ReportDefinition[] = [
  workType,
  marketAnalysis,
  zipCode,
  topCustomers,
  bidSchedule,
  estimateTotals,
];
