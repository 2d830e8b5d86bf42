// Every area, in order: the one list app.ts, the worker, the CLI and the demo seed install
// (src/area.ts says what an area contributes). A new area is a folder under src/modules with an
// area.ts manifest, a subpath import in package.json, and one line here.
import type { Area } from './area.ts';
import { billingArea } from '#billing/area.ts';
import { conditionArea } from '#condition/area.ts';
import { crmArea } from '#crm/area.ts';
import { estimatingArea } from '#estimating/area.ts';
import { fieldArea } from '#field/area.ts';
import { integrationsArea } from '#integrations/area.ts';
import { measurementArea } from '#measurement/area.ts';
import { operationsArea } from '#operations/area.ts';
import { reportsArea } from '#reports/area.ts';
import { workspaceArea } from '#workspace/area.ts';

export const AREAS: readonly Area[] = [
  workspaceArea,
  crmArea,
  estimatingArea,
  billingArea,
  operationsArea,
  fieldArea,
  conditionArea,
  measurementArea,
  reportsArea,
  integrationsArea,
];
