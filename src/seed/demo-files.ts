// The demo workspace's files, stored through the same path an upload takes, so `npm start` shows
// them: the walked job's takeoff quantities (a CSV on the job, for the crew too), and a Company
// Library folder with the crew safety checklist, linked to that job.
import type { ServiceContext } from '#platform/context.ts';
import { attachLibraryFile, createLibraryFolder, recordFileUpload, storeFileObject } from '#field/index.ts';

const QUANTITIES = [
  'area,service,quantity,unit',
  'East entrance,Base failure repair,216,SF',
  'Main lot,Crack sealing,650,LF',
  'Main lot,Sealcoating,38500,SF',
  'Main lot,Line striping,1840,LF',
  '',
].join('\n');

const CHECKLIST = [
  'CREW SAFETY CHECKLIST',
  '',
  '[ ] Cones and signs set before the first pass',
  '[ ] Hi-vis vests, boots and gloves on the whole crew',
  '[ ] Sealer SDS on the truck; eyewash bottle full',
  '[ ] Check for overhead lines before raising the dump bed',
  '[ ] Barricade wet sealer; post the re-open time',
  '',
].join('\n');

/** Adds the demo files to the walked job and the Company Library. */
export async function demoFiles(ctx: ServiceContext, jobId: number): Promise<void> {
  const quantities = await storeFileObject(ctx, Buffer.from(QUANTITIES), 'text/csv', 'Takeoff quantities.csv');
  await recordFileUpload(ctx, { kind: 'job', jobId }, quantities, {
    description: 'Quantities from the lot walk, for the crew',
    audience: 'field',
  });
  const folder = await createLibraryFolder(ctx, { name: 'Safety' });
  const checklist = await storeFileObject(ctx, Buffer.from(CHECKLIST), 'text/plain', 'Crew safety checklist.txt');
  const { data } = await recordFileUpload(ctx, { kind: 'library' }, checklist, {
    description: 'Read on site before every job',
    folder_id: folder.data.id,
  });
  await attachLibraryFile(ctx, jobId, data.id);
}
