// Resource and lead reports: crews, subcontractors, vendors, certified firms, the lead pipeline and brochure scans (docs/reports.md). Each report is a file of its own; this file lists them in the order
// GET /v1/reports shows them (run.ts puts the sections together).
import { brochureScans } from './brochure-scans.ts';
import { leadPipeline } from './lead-pipeline.ts';
import { minority } from './minority.ts';
import { resourceUtilization } from './resource-utilization.ts';
import type { ReportDefinition } from './run.ts';
import { subUtilization } from './sub-utilization.ts';
import { vendorUtilization } from './vendor-utilization.ts';

export const RESOURCE_REPORTS: readonly ReportDefinition[] = [
  resourceUtilization,
  subUtilization,
  vendorUtilization,
  minority,
  leadPipeline,
  brochureScans,
];
