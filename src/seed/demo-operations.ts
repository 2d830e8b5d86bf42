// The demo workspace's operations: two crews with their foremen, a published week of work on the
// won jobs, a hold pencilled in for next week, an estimator's pending date request, yesterday's
// submitted daily log with its report and photos, the crew's time and a job cost, and a site whose
// sealcoat comes due for a re-bid. Everything goes through the services the API calls, as the
// users who would do it (the foreman files from the crew app).
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { recordPhotoUpload, storeUpload } from '#field/index.ts';
import {
  addHistory,
  createCrew,
  createHold,
  createJobCost,
  createRequest,
  createTimeEntry,
  createWorkOrder,
  fileDailyReport,
  publishSchedule,
  submitDailyLog,
} from '#operations/index.ts';
import { actingAs } from '#platform/auth.ts';
import type { ServiceContext } from '#platform/context.ts';
import { sniff } from '#platform/imagery/sniff.ts';
import { addDays } from '#platform/time.ts';
import { localToStored, todayIn } from '#platform/time-zone.ts';

export interface DemoOperationsInput {
  /** Won jobs to schedule (at least two). */
  jobIds: number[];
  /** The site whose last sealcoat comes due. */
  siteId: number;
  foremen: [number, number];
  estimatorId: number;
}

/** A freshly sealed lot, drawn as the demo's other photos are. */
async function sealedLotJpeg(): Promise<Buffer> {
  const stalls = Array.from(
    { length: 7 },
    (_, i) => `<line x1="${120 + i * 120}" y1="40" x2="${60 + i * 120}" y2="600" stroke="#fde047" stroke-width="9"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="640"><rect width="960" height="640" fill="#111827"/>${stalls}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

export async function demoOperations(ctx: ServiceContext, input: DemoOperationsInput): Promise<void> {
  const [first, second] = input.jobIds;
  if (first === undefined || second === undefined) return;
  const tz = ctx.auth.firm.timezone;
  const today = todayIn(tz);
  // The overlay started yesterday (its daily log is yesterday's) and runs through today.
  const start = addDays(today, -1);
  const paving = await createCrew(ctx, {
    name: 'Paving crew',
    color: '#b45309',
    foreman_user_id: input.foremen[0],
  });
  const sealing = await createCrew(ctx, {
    name: 'Seal & stripe crew',
    color: '#2563eb',
    foreman_user_id: input.foremen[1],
  });
  // This week's work, published to the crews.
  const mill = await createWorkOrder(ctx, {
    job_id: first,
    title: 'Mill and overlay east entrance',
    crew_id: paving.id,
    scheduled_date: start,
    estimated_days: 2,
    start_time: '07:00',
    end_time: '15:30',
    phase: 'Paving',
    display_qty: 1200,
    display_unit: 'SY',
    dispatch_notes: 'Gate code at the office; keep the north drive open for deliveries.',
  });
  await createWorkOrder(ctx, {
    job_id: second,
    title: 'Sealcoat and restripe',
    crew_id: sealing.id,
    scheduled_date: addDays(today, 2),
    estimated_days: 1,
    start_time: '06:00',
    end_time: '14:00',
    phase: 'Sealcoat',
    display_qty: 42000,
    display_unit: 'SF',
  });
  await publishSchedule(ctx, { start_date: start, end_date: addDays(start, 6) });
  // Next week: the paving crew pencilled in for a job still being sold.
  await createHold(ctx, {
    name: 'Harbor Freight lot (pending contract)',
    scheduled_date: addDays(today, 8),
    estimated_days: 2,
    crew_id: paving.id,
    scope: 'Hold for full-depth patching\nIf the contract is signed by Friday',
  });
  // The estimator asks for a date for the sealcoat customer's follow-on work.
  const estimator = { ...ctx, auth: await actingAs(ctx.database.db, ctx.auth.firm.id, input.estimatorId) };
  await createRequest(estimator, {
    kind: 'date',
    job_id: second,
    requested_date: addDays(today, 14),
    note: 'Customer asks for a start while the tenants are away.',
  });
  // The paving foreman's day on the overlay: time, the report with photos, then the log submitted.
  const foreman = { ...ctx, auth: await actingAs(ctx.database.db, ctx.auth.firm.id, input.foremen[0]) };
  const day = start;
  await createTimeEntry(foreman, {
    work_order_id: mill.id,
    cost_code: '02-100',
    clock_in: `${localToStored(day, '06:45', tz).slice(0, 19)}Z`,
    clock_out: `${localToStored(day, '15:45', tz).slice(0, 19)}Z`,
  });
  const report = await fileDailyReport(foreman, {
    work_order_id: mill.id,
    date: day,
    weather: 'Sunny, 68°F',
    work_performed: 'Milled 2 in. at the east entrance and paved the first lane.',
    delay_notes: 'Trucks 40 min late from the plant.',
    safety_notes: 'Cones and flaggers at the entrance all day.',
    material_notes: '96 tons of surface mix.',
    equipment_notes: 'Mill, paver, two rollers.',
    completed_quantity: 600,
    completed_unit: 'SY',
  });
  const photo = await sealedLotJpeg();
  const stored = await storeUpload(foreman, Readable.from([photo]), sniff(photo)!);
  await recordPhotoUpload(
    foreman,
    mill.job_id,
    stored,
    { title: 'First lane paved', stage: 'after', daily_report_id: report.id },
    'http://localhost',
  );
  await submitDailyLog(foreman, { work_order_id: mill.id, date: day });
  await createJobCost(ctx, first, {
    cost_type: 'material',
    cost_code: '02-100',
    amount: 7488,
    date: day,
    description: '96 t surface mix at $78/t',
    quantity: 96,
    unit: 'TON',
  });
  // A lot sealed nearly two years ago: its sealcoat re-bid comes due next month.
  const cycles = await ctx.database.db
    .selectFrom('rebid_cycles')
    .select(['id', 'service'])
    .where('firm_id', '=', ctx.auth.firm.id)
    .execute();
  const sealcoat = cycles.find((c) => /seal ?coat/i.test(c.service));
  if (sealcoat)
    await addHistory(ctx, {
      location_id: input.siteId,
      cycle_id: sealcoat.id,
      done_on: addDays(today, -700),
      amount: 6800,
      note: 'Sealcoat and restripe, 42,000 SF',
    });
}
