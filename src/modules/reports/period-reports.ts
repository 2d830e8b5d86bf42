// Period reports: the week or month at a glance, sales by day, the KPIs and the cash ahead (docs/reports.md). Each report is a file of its own; this file lists them in the order
// GET /v1/reports shows them (run.ts puts the sections together).
import { cashForecast } from './cash-forecast.ts';
import { kpi } from './kpi.ts';
import type { ReportDefinition } from './run.ts';
import { weekGlance } from './week-glance.ts';
import { weeklySales } from './weekly-sales.ts';
import { weeklySummary } from './weekly-summary.ts';

export const PERIOD_REPORTS: readonly ReportDefinition[] = [kpi, weeklySales, weekGlance, weeklySummary, cashForecast];
