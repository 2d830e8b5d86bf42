// The jobs export dataset (document 3, Export dataset rows): the job object of GET /v1/jobs/{id}
// (custom_fields included), for the jobs the caller sees.
import { defineDataset } from '#src/area.ts';
import { jobRowsAfter } from './repo.ts';
import { jobObject } from './serialize.ts';

export const jobsDataset = defineDataset({
  name: 'jobs',
  description: 'Jobs as GET /v1/jobs/{id} shows them, custom_fields included',
  changedSinceFields: ['updated_at'],
  readBatch: (db, { firmId, user, afterId, limit, updatedAfter }) =>
    jobRowsAfter(db, firmId, user, afterId, limit, updatedAfter),
  toRow: (row) => jobObject(row),
});
