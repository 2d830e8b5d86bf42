// Every export dataset, in the order of document 3's list. A new dataset is declared next to its
// area (modules/<area>/export.ts) and added here: one import and one entry.
import { customersDataset } from '#crm/client-accounts/export.ts';
import { propertiesDataset } from '#crm/locations/export.ts';
import { jobsDataset } from '#crm/jobs/export.ts';
import { estimateLinesDataset, estimatesDataset } from '#estimating/estimates/export.ts';
import { eventsDataset } from '#events/export.ts';
import type { Dataset } from './datasets.ts';

export const DATASETS: readonly Dataset[] = [
  customersDataset,
  propertiesDataset,
  jobsDataset,
  estimatesDataset,
  estimateLinesDataset,
  eventsDataset,
];

const byName = new Map(DATASETS.map((d) => [d.name, d]));

export function datasetNamed(name: string): Dataset | undefined {
  return byName.get(name);
}

export const DATASET_NAMES: readonly string[] = DATASETS.map((d) => d.name);
