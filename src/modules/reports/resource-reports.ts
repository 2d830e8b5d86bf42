// Resource and lead reports: crews, subcontractors, vendors, certified firms, the lead pipeline and brochure scans (docs/reports.md). Each report is a file of its own; this file lists them in the order
// GET /v1/reports shows them (run.ts puts the sections together).
import type { ReportDefinition } from './run.ts';

export const RESOURCE_REPORTS: readonly ReportDefinition[] = [];
