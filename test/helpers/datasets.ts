// The export datasets Groundwork serves, in document 3's order (Bulk export, "Datasets"; the spec's
// job_costs, work_orders, time_entries and allocations come from the operations area). The export tests
// and the area-list test pin this one list, so a dataset added or dropped changes it in one place.
export const EXPORT_DATASETS = [
  'customers',
  'properties',
  'jobs',
  'estimates',
  'estimate_lines',
  'invoices',
  'change_orders',
  'job_costs',
  'work_orders',
  'time_entries',
  'allocations',
  'events',
] as const;
