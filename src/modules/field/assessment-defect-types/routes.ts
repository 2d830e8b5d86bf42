// GET /v1/assessment-defect-types: the fixed list a pin's defect_type_id names.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import type { Env } from '#platform/context.ts';
import { DEFECT_TYPES } from './list.ts';

export const DefectTypeSchema = Type.Object({ id: Type.Integer(), name: Type.String(), group: Type.String() });

export function assessmentDefectTypeRoutes(app: ApiApp, _env: Env): void {
  app.get(
    '/v1/assessment-defect-types',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Site assessments'],
        summary: 'The defects a pin can name with defect_type_id (a fixed list)',
        response: { 200: Type.Object({ data: Type.Array(DefectTypeSchema) }) },
      },
    },
    async () => ({ data: [...DEFECT_TYPES] }),
  );
}
