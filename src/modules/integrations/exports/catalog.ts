// The export datasets: every area's `exportDatasets` (src/area.ts), in area order, which follows
// document 3's list. A new dataset is declared next to its area's queries and named in its manifest.
import { contributions } from '#src/area.ts';
import type { Dataset } from '#src/area.ts';

export function datasets(): readonly Dataset[] {
  return contributions().exportDatasets;
}

export function datasetNamed(name: string): Dataset | undefined {
  return datasets().find((d) => d.name === name);
}

export function datasetNames(): string[] {
  return datasets().map((d) => d.name);
}
