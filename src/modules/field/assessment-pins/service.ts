// Assessment pins (document 3, Site assessments and pins): a pin joins the assessment given (it
// must be open) or the job's open one; a service pin on a job with no open assessment starts one;
// any other pin stays loose until the job's next assessment. Adding a pin leaves the assessment's
// updated_at alone. A pin's quantity reaches the job's draft estimate in the same transaction
// (estimate-quantities.ts), which is opened as estimate writes open theirs (inEstimateTransaction).
import type { Transaction } from 'kysely';
import type { AssessmentPin, DB } from '#db/tables.ts';
import { updateChanged } from '#db/update-changed.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { findDefectType } from '#field/assessment-defect-types/list.ts';
import type { MeasurementType } from '#field/assessment-services/schemas.ts';
import { findPhotoTag, photoTagNotFound } from '#field/photo-tags/service.ts';
import { findAssessment, findOpenAssessment } from '#field/site-assessments/repo.ts';
import { startAssessment } from '#field/site-assessments/open.ts';
import { inEstimateTransaction } from '#estimating/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { badRequest, conflict, invalidField, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { now } from '#platform/time.ts';
import { syncDraftEstimate } from './estimate-quantities.ts';
import { nextPinNumber } from './label.ts';
import { measure, type MeasurementInput } from './measurement.ts';
import { findPin, listPins, type PinRow } from './repo.ts';
import type { CreatePinInput, Pin, PinListInput, UpdatePinInput } from './schemas.ts';
import { pinObject } from './serialize.ts';
import { pinNotFound } from './errors.ts';
import { deletePinOnlyPhotos, pinObjects } from './photos.ts';
import { removeQuietly } from '#field/photos/service.ts';

export { pinNotFound };
const assessmentNotFound = () => notFound('Site assessment not found');
const serviceNotFound = () => notFound('Assessment service not found');
const defectNotFound = () => notFound('Defect type not found');

type Trx = Transaction<DB>;

async function findService(trx: Trx, firmId: number, id: number) {
  const service = await trx
    .selectFrom('assessment_services')
    .select(['id', 'measurement_type'])
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!service) throw serviceNotFound();
  return service as { id: number; measurement_type: MeasurementType };
}

/** Checks the tag and defect a body names (404 for one the workspace does not have). */
async function checkRefs(
  trx: Trx,
  firmId: number,
  input: { tag_type_id?: number | null; defect_type_id?: number | null },
) {
  if (input.tag_type_id != null && !(await findPhotoTag(trx, firmId, input.tag_type_id))) throw photoTagNotFound();
  if (input.defect_type_id != null && !findDefectType(input.defect_type_id)) throw defectNotFound();
}

async function mustFindPin(trx: Trx, ctx: ServiceContext, id: number): Promise<PinRow> {
  const pin = await findPin(trx, ctx.auth.firm.id, id, ctx.auth.user);
  if (!pin) throw pinNotFound();
  return pin;
}

export async function getPin(ctx: ServiceContext, id: number, base: string): Promise<Pin> {
  const pin = await findPin(ctx.database.db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!pin) throw pinNotFound();
  return (await pinObjects(ctx, [pin], base))[0]!;
}

export async function listAssessmentPins(ctx: ServiceContext, q: PinListInput, base: string) {
  const page = pageOf(q);
  const { rows, total } = await listPins(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    {
      jobId: q.job_id,
      assessmentId: q.assessment_id,
      serviceTypeId: q.service_type_id,
      updatedAfter: syncWindow(q.updated_after, 'second'),
    },
    page.limit,
    page.offset,
  );
  return listEnvelope(await pinObjects(ctx, rows, base), total, page);
}

export async function createPin(ctx: ServiceContext, input: CreatePinInput): Promise<Pin> {
  const { latitude, longitude } = input;
  if (latitude === undefined || longitude === undefined) {
    throw badRequest('latitude and longitude are required', {
      code: 'invalid_request',
      field: latitude === undefined ? 'latitude' : 'longitude',
    });
  }
  if (input.job_id === undefined && input.assessment_id === undefined)
    throw invalidField('job_id', 'job_id or assessment_id is required');
  const firmId = ctx.auth.firm.id;
  return inEstimateTransaction(ctx, async (trx, places) => {
    let assessmentId: number | null = null;
    let jobId = input.job_id;
    if (input.assessment_id !== undefined) {
      const assessment = await findAssessment(trx, firmId, input.assessment_id, ctx.auth.user);
      if (!assessment) throw assessmentNotFound();
      if (jobId !== undefined && jobId !== assessment.job_id)
        throw invalidField('assessment_id', 'assessment_id is an assessment of another job');
      if (assessment.status !== 'open') {
        throw conflict('Assessment is completed', {
          code: 'assessment_completed',
          message: 'Reopen the assessment first (POST /v1/site-assessments/{id}/reopen) to add pins to it',
        });
      }
      assessmentId = assessment.id;
      jobId = assessment.job_id;
    }
    const job = await findVisibleJob(trx, firmId, jobId!, ctx.auth.user);
    if (!job) throw jobNotFound();
    const service = input.service_type_id != null ? await findService(trx, firmId, input.service_type_id) : null;
    await checkRefs(trx, firmId, input);
    const m = measure(measurementInput(input), service?.measurement_type ?? null);

    if (assessmentId === null) {
      const open = await findOpenAssessment(trx, firmId, job.id);
      if (open) assessmentId = open.id;
      else if (service) assessmentId = await startAssessment(trx, ctx, job);
    }
    const serviceTypeId = service?.id ?? null;
    const at = now();
    const { id } = await trx
      .insertInto('assessment_pins')
      .values({
        firm_id: firmId,
        job_id: job.id,
        assessment_id: assessmentId,
        number: await nextPinNumber(trx, { jobId: job.id, assessmentId, serviceTypeId }),
        name: input.name?.trim() || null,
        latitude,
        longitude,
        service_type_id: serviceTypeId,
        tag_id: input.tag_type_id ?? null,
        defect_type_id: input.defect_type_id ?? null,
        severity: input.severity ?? 'medium',
        size: input.size ?? 'medium',
        notes: input.notes?.trim() || null,
        visibility: input.visibility ?? 'external',
        keep_for_proposal: input.keep_for_proposal ? 1 : 0,
        ...storedMeasurement(m),
        ai_severity: null,
        ai_rationale: null,
        created_by_user_id: ctx.auth.user.id,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await syncDraftEstimate(ctx, trx, places, job.id, [serviceTypeId]);
    return pinObject(await mustFindPin(trx, ctx, id));
  });
}

const MEASUREMENT_FIELDS = [
  'measurement_type',
  'measurement_value',
  'measurement_unit',
  'length_ft',
  'width_ft',
  'depth_in',
  'measurement_data',
] as const;

function measurementInput(input: CreatePinInput | UpdatePinInput): MeasurementInput {
  return {
    type: input.measurement_type,
    value: input.measurement_value,
    unit: input.measurement_unit,
    length_ft: input.length_ft,
    width_ft: input.width_ft,
    depth_in: input.depth_in,
    data: input.measurement_data,
  };
}

function storedMeasurement(m: ReturnType<typeof measure>) {
  return {
    measurement_type: m.type,
    measurement_value: m.value,
    measurement_unit: m.unit,
    measurement_data: JSON.stringify(m.data),
    length_ft: m.length_ft,
    width_ft: m.width_ft,
    depth_in: m.depth_in,
  };
}

/** The client's own measurement_data of a stored pin (without the dimensions measure() adds). */
function clientData(pin: AssessmentPin): Record<string, unknown> {
  const {
    length_ft: _l,
    width_ft: _w,
    depth_in: _d,
    area_sqft: _a,
    ...rest
  } = JSON.parse(pin.measurement_data) as Record<string, unknown>;
  return rest;
}

/**
 * The measurement after a PATCH: the stored inputs with the fields sent over them. A value not
 * sent is kept while the type stays; a new type starts from its own rule (computed, or empty).
 */
function remeasure(pin: AssessmentPin, input: UpdatePinInput, serviceType: MeasurementType | null) {
  const typeChanged = input.measurement_type !== undefined && input.measurement_type !== pin.measurement_type;
  const sentOrStored = <K extends 'length_ft' | 'width_ft' | 'depth_in'>(k: K) =>
    input[k] !== undefined ? input[k] : pin[k];
  return measure(
    {
      type: input.measurement_type ?? (pin.measurement_type === 'none' ? undefined : pin.measurement_type),
      value:
        input.measurement_value !== undefined ? input.measurement_value : typeChanged ? null : pin.measurement_value,
      unit: input.measurement_unit,
      length_ft: sentOrStored('length_ft'),
      width_ft: sentOrStored('width_ft'),
      depth_in: sentOrStored('depth_in'),
      data: input.measurement_data ?? clientData(pin),
    },
    serviceType,
  );
}

/** Any create field but job_id and assessment_id; only the fields sent change (null clears). */
export async function updatePin(ctx: ServiceContext, id: number, input: UpdatePinInput, base: string): Promise<Pin> {
  const firmId = ctx.auth.firm.id;
  const row = await inEstimateTransaction(ctx, async (trx, places) => {
    const pin = await mustFindPin(trx, ctx, id);
    const service =
      input.service_type_id != null
        ? await findService(trx, firmId, input.service_type_id)
        : input.service_type_id === null || pin.service_type_id === null
          ? null
          : await trx
              .selectFrom('assessment_services')
              .select(['id', 'measurement_type'])
              .where('id', '=', pin.service_type_id)
              .executeTakeFirst();
    await checkRefs(trx, firmId, input);
    const serviceTypeId = input.service_type_id !== undefined ? (service?.id ?? null) : pin.service_type_id;
    const regroup = serviceTypeId !== pin.service_type_id;
    const touched = MEASUREMENT_FIELDS.some((k) => input[k] !== undefined);
    const m = touched
      ? remeasure(pin, input, (service?.measurement_type as MeasurementType | undefined) ?? null)
      : null;
    await updateChanged(
      trx,
      'assessment_pins',
      pin,
      {
        ...(input.latitude !== undefined ? { latitude: input.latitude } : {}),
        ...(input.longitude !== undefined ? { longitude: input.longitude } : {}),
        ...(regroup
          ? {
              service_type_id: serviceTypeId,
              number: await nextPinNumber(trx, { jobId: pin.job_id, assessmentId: pin.assessment_id, serviceTypeId }),
            }
          : {}),
        ...(input.tag_type_id !== undefined ? { tag_id: input.tag_type_id } : {}),
        ...(input.defect_type_id !== undefined ? { defect_type_id: input.defect_type_id } : {}),
        ...(input.severity !== undefined ? { severity: input.severity } : {}),
        ...(input.size !== undefined ? { size: input.size } : {}),
        ...(input.notes !== undefined ? { notes: input.notes?.trim() || null } : {}),
        ...(input.name !== undefined ? { name: input.name?.trim() || null } : {}),
        ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
        ...(input.keep_for_proposal !== undefined ? { keep_for_proposal: input.keep_for_proposal ? 1 : 0 } : {}),
        ...(m ? storedMeasurement(m) : {}),
      },
      { stamp: { updated_at: now() } },
    );
    if (regroup || touched) await syncDraftEstimate(ctx, trx, places, pin.job_id, [pin.service_type_id, serviceTypeId]);
    return mustFindPin(trx, ctx, id);
  });
  return (await pinObjects(ctx, [row], base))[0]!;
}

/**
 * Deletes the pin and updates the draft estimate. Its photos go too, except one another pin still
 * shows (a duplicate's copy); their stored objects are removed after the commit.
 */
export async function deletePin(ctx: ServiceContext, id: number): Promise<void> {
  assertDeletionAllowed(ctx);
  const keys = await inEstimateTransaction(ctx, async (trx, places) => {
    const pin = await mustFindPin(trx, ctx, id);
    const photoKeys = await deletePinOnlyPhotos(trx, ctx.auth.firm.id, id);
    await trx.deleteFrom('assessment_pins').where('id', '=', id).execute();
    await syncDraftEstimate(ctx, trx, places, pin.job_id, [pin.service_type_id]);
    return photoKeys;
  });
  await removeQuietly(ctx, keys);
}
