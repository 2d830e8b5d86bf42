// The demo workspace made on first start: a paving and sealcoating company with a small team,
// customers, sites and jobs across the pipeline, written through the same services as the API
// (so its jobs carry their events like any other): people on its jobs, custom fields with
// values, notes and follow-ups, photos and files included.
import type { Env } from '#platform/context.ts';
import { actingAs } from '#platform/auth.ts';
import { PERMISSIONS } from '#platform/permissions.ts';
import { now } from '#platform/time.ts';
import { addJobStage, createApiKey, createUser, createWorkspace } from '#admin/index.ts';
import {
  addJobPerson,
  createAccountTask,
  createContact,
  createField,
  createJob,
  createNote,
  createTask,
  moveJob,
  setRecordValues,
  upsertClientAccount,
  upsertLocation,
} from '#crm/index.ts';
import { addLine, createEstimate, issueEstimate } from '#estimating/index.ts';
import {
  completeSiteAssessment,
  createAssessmentShareLink,
  createPhotoShareLink,
  createPhotoTag,
  createPin,
  createSiteAssessment,
  enablePlanShareLink,
} from '#field/index.ts';
import { demoFiles } from './demo-files.ts';
import { demoLeads } from './demo-leads.ts';
import { demoOperations } from './demo-operations.ts';
import { demoConditionRatings } from './demo-condition.ts';
import { demoMeasurement } from './demo-measurement.ts';
import { demoLandscape } from './demo-landscape.ts';
import { demoPortal } from './demo-portal.ts';
import { demoChangeOrders } from './demo-change-orders.ts';
import { demoInvoices } from './demo-invoice.ts';
import { demoProposal } from './demo-proposal.ts';
import { demoPhotos, demoPinPhoto } from './demo-photos.ts';
import { demoReminders } from './demo-reminders.ts';
import { demoReportData } from './demo-report-data.ts';
import { recordDemoLinks } from './demo-links.ts';

export interface DemoWorkspace {
  firmId: number;
  name: string;
  key: string;
  /** Customer pages the demo shows out of the box: a label and the path (the server's origin goes before it). */
  pages: { label: string; path: string }[];
}

const CUSTOMERS = [
  {
    name: 'Maple Ridge HOA',
    external_ref: 'crm-acct-1001',
    email: 'board@mapleridgehoa.example',
    phone: '(614) 555-0142',
  },
  {
    name: 'Northgate Plaza LLC',
    external_ref: 'crm-acct-1002',
    email: 'facilities@northgateplaza.example',
    phone: '(614) 555-0187',
  },
  {
    name: 'St. Brendan Parish',
    external_ref: 'crm-acct-1003',
    email: 'office@stbrendan.example',
    phone: '(614) 555-0123',
  },
  {
    name: 'Columbus Self Storage',
    external_ref: 'crm-acct-1004',
    email: 'ops@cbusstorage.example',
    phone: '(614) 555-0164',
  },
];

const SITES = [
  {
    customer: 0,
    address: '4410 Maple Ridge Dr, Dublin, OH 43017',
    name: 'Maple Ridge clubhouse lot',
    property_reference: 'MR-CLUB',
  },
  {
    customer: 1,
    address: '2250 Northgate Blvd, Columbus, OH 43229',
    name: 'Northgate Plaza main lot',
    property_reference: 'NG-01',
  },
  {
    customer: 2,
    address: '181 E Church St, Worthington, OH 43085',
    name: 'Parish parking lot',
    property_reference: null,
  },
  {
    customer: 3,
    address: '900 Industrial Pkwy, Grove City, OH 43123',
    name: 'Storage yard',
    property_reference: 'CSS-GC',
  },
];

/** A line of a demo estimate: a starter-catalog service (by the start of its name) and a quantity. */
interface DemoLine {
  service: string;
  quantity: number;
  area?: string;
  optional?: boolean;
}

/**
 * What each demo job is priced at (its issued estimate), by job name: the proposal made from it is
 * sent, and signed for a job that is won (demo-proposal.ts), so the pipeline and the paper agree.
 */
const PRICED: Record<string, DemoLine[]> = {
  'Maple Ridge clubhouse sealcoat 2027': [
    { service: 'Sealcoating', quantity: 8_000, area: 'Clubhouse lot' },
    { service: 'Crack sealing', quantity: 900, area: 'Clubhouse lot' },
    { service: 'Parking stall striping', quantity: 64, area: 'Clubhouse lot' },
  ],
  'Northgate Plaza crack fill': [{ service: 'Crack sealing', quantity: 3_950, area: 'Main lot' }],
  'St. Brendan lot patch and restripe': [
    { service: 'Full-depth asphalt patch', quantity: 890, area: 'Parish lot' },
    { service: 'Parking stall striping', quantity: 48, area: 'Parish lot' },
    { service: 'ADA stall with stencil', quantity: 2, area: 'Parish lot' },
  ],
};

const JOBS = [
  {
    name: 'Maple Ridge clubhouse sealcoat 2027',
    site: 0,
    job_type: ['Sealcoating', 'Line Striping'],
    value: 18450,
    status: 'active',
    contact: ['Dana Whitfield', 'dana@mapleridgehoa.example'],
  },
  {
    name: 'Northgate Plaza mill and overlay',
    site: 1,
    job_type: ['Asphalt Paving'],
    value: 51500,
    status: 'active',
    contact: ['Marcus Lee', 'mlee@northgateplaza.example'],
  },
  {
    name: 'Northgate Plaza crack fill',
    site: 1,
    job_type: ['Crack Filling'],
    value: 6400,
    status: 'won',
    contact: ['Marcus Lee', 'mlee@northgateplaza.example'],
  },
  {
    name: 'St. Brendan lot patch and restripe',
    site: 2,
    job_type: ['Patching', 'Line Striping'],
    value: 9875.5,
    status: 'completed',
    contact: ['Fr. Tom Ruiz', 'office@stbrendan.example'],
  },
  {
    name: 'Storage yard sealcoat',
    site: 3,
    job_type: ['Sealcoating'],
    value: 14200,
    status: 'lost',
    contact: ['Priya Natarajan', 'ops@cbusstorage.example'],
  },
  {
    name: 'Maple Ridge entrance landscaping',
    site: 0,
    job_type: ['Landscaping'],
    value: 7300,
    status: 'lead',
    contact: ['Dana Whitfield', 'dana@mapleridgehoa.example'],
  },
];

/** Creates the demo workspace when the database has no workspace yet; returns null otherwise. */
/** `origin` is where the server will answer (serve's base URL): the demo proposal's email links there. */
export async function seedDemoWorkspace(env: Env, origin = ''): Promise<DemoWorkspace | null> {
  const { database, deps } = env;
  const any = await database.db.selectFrom('firms').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const name = 'Blacktop Brothers Paving';
  const { firm_id, owner_user_id } = await createWorkspace(database, {
    name,
    plan: 'gold',
    subscription_status: 'active',
    timezone: 'America/New_York',
    owner: {
      name: 'Rosa Delgado',
      email: 'rosa@blacktopbrothers.example',
      job_title: 'Owner',
      phone_number: '(614) 555-0100',
    },
    divisions: [
      { key: 'paving', name: 'Paving' },
      { key: 'sealcoating', name: 'Sealcoating' },
      { key: 'landscape', name: 'Landscape' },
    ],
    settings: {
      operations_enabled: true,
      crew_scheduling_enabled: true,
      daily_log_signoff: true,
      capital_planning_enabled: true,
      // Online payments in the built-in test mode (or Stripe, when the server is configured for it).
      online_payments_connected: true,
      remit_to: { name, address: '77 Tar Rd, Columbus, OH 43215' },
      // Landscape takeoffs' credits: the demo's entrance takeoffs use two (the aerial one's first
      // detect, the plan one's stored pages), leaving 23 to try.
      takeoff_credits: 25,
    },
  });
  await addJobStage(database, firm_id, { key: 'completed', label: 'Completed', type: 'won', completed: true });
  await addJobStage(database, firm_id, { key: 'not_pursued', label: 'Not pursued', type: 'excluded' });
  const estimator = await createUser(database, firm_id, {
    name: 'Jamal Carter',
    email: 'jamal@blacktopbrothers.example',
    role: 'member',
    job_title: 'Estimator',
  });
  const pavingForeman = await createUser(database, firm_id, {
    name: 'Luis Ortega',
    email: 'luis@blacktopbrothers.example',
    role: 'crew',
    job_title: 'Foreman',
    pay_rate: 32,
  });
  const sealingForeman = await createUser(database, firm_id, {
    name: 'Dee Harmon',
    email: 'dee@blacktopbrothers.example',
    role: 'crew',
    job_title: 'Foreman',
    pay_rate: 28.5,
  });
  const { key } = await createApiKey(database, firm_id, {
    user_id: owner_user_id,
    name: 'Demo key',
    permissions: [...PERMISSIONS],
  });

  const ctx = { database, deps, auth: await actingAs(database.db, firm_id, owner_user_id) };
  const customers = [];
  for (const c of CUSTOMERS) customers.push((await upsertClientAccount(ctx, c)).account);
  const sites = [];
  for (const s of SITES) {
    sites.push(
      (
        await upsertLocation(ctx, {
          address: s.address,
          name: s.name,
          property_reference: s.property_reference,
          client_account_id: customers[s.customer].id,
        })
      ).location,
    );
  }
  const gateCode = (await createField(ctx, { entity_type: 'job', label: 'Gate code' })).field;
  const permit = (
    await createField(ctx, { entity_type: 'job', label: 'Permit needed', field_type: 'checkbox', show_as_flag: true })
  ).field;
  await createField(ctx, {
    entity_type: 'account',
    label: 'Billing cycle',
    field_type: 'select',
    options: ['Net 15', 'Net 30', 'Net 45'],
  });
  await createField(ctx, { entity_type: 'contact', label: 'Best time to call' });

  const people = new Map<string, number>();
  let n = 0;
  let walkedJobId: number | null = null;
  let landscapeJobId: number | null = null;
  let walkedEstimateId: number | null = null;
  let readyToSign: DemoWorkspace['pages'][number] | null = null;
  const wonJobIds: number[] = [];
  for (const j of JOBS) {
    const site = sites[j.site];
    const { id } = await createJob(ctx, {
      name: j.name,
      external_ref: `crm-deal-${2001 + n}`,
      address: site.address,
      client_account_id: site.client_account_id,
      job_type: j.job_type,
      estimated_value: j.value,
      contact_name: j.contact[0],
      contact_email: j.contact[1],
      assigned_to_user_id: n % 2 === 0 ? owner_user_id : estimator.id,
      priority: n === 1 ? 'high' : 'normal',
      next_follow_up: n < 2 ? now().slice(0, 10) : undefined,
      source: 'Referral',
    });
    if (j.job_type.includes('Landscaping')) landscapeJobId = id;
    // Walk each job through the pipeline so its history (and events) look like real use: a job is
    // won by its customer signing its proposal (the acceptance moves it), then may be completed.
    const priced = PRICED[j.name];
    if (j.status !== 'lead') await moveJob(ctx, id, 'active');
    if (priced) {
      const estimateId = await issuedEstimate(ctx, id, `${j.job_type.join(' and ')}, ${site.name}`, priced);
      const won = j.status === 'won' || j.status === 'completed';
      const proposal = await demoProposal(ctx, estimateId, origin, {
        ...(won ? { signer: { name: j.contact[0], email: j.contact[1] } } : {}),
      });
      if (!won) readyToSign = proposal.page;
      // Without the outbox nothing is sent or signed: the office marks the job won instead.
      else if (!proposal.sent) await moveJob(ctx, id, 'won');
      if (j.status === 'completed') await moveJob(ctx, id, 'completed');
      if (j.status === 'won') wonJobIds.push(id);
    } else if (j.status !== 'lead' && j.status !== 'active') await moveJob(ctx, id, j.status);

    // The job's contact as a saved person (made once, then added to each of their jobs).
    let person = people.get(j.contact[1]);
    if (person === undefined) {
      const customer = customers[SITES[j.site].customer];
      person = (
        await createContact(ctx, {
          name: j.contact[0],
          email: j.contact[1],
          phone: CUSTOMERS[SITES[j.site].customer].phone,
          client_account_id: customer.id,
          title: j.contact[0].startsWith('Fr.') ? 'Pastor' : 'Property manager',
          preferred_channel: 'email',
          custom_fields: n === 1 ? { best_time_to_call: 'Mornings before 10' } : {},
        })
      ).id;
      people.set(j.contact[1], person);
    }
    await addJobPerson(ctx, id, { contact_id: person, role: 'decision_maker' });
    await setRecordValues(ctx, 'job', id, { [gateCode.key]: `#${1200 + n * 37}`, [permit.key]: n === 1 });
    if (n === 1) {
      await createNote(
        ctx,
        { column: 'job_id', id },
        { content: 'Walked the lot with Marcus: east entrance base failure, mill 2", overlay 2".', type: 'meeting' },
      );
      await createTask(ctx, {
        job_id: id,
        title: 'Send revised overlay proposal',
        task_type: 'email',
        due_date: now().slice(0, 10),
      });
      walkedEstimateId = await demoEstimate(ctx, id);
      walkedJobId = id;
    }
    n++;
  }
  await createNote(
    ctx,
    { column: 'client_account_id', id: customers[0].id },
    { content: 'Board meets the second Tuesday; send proposals a week before.' },
  );
  await createAccountTask(ctx, {
    client_account_id: customers[3].id,
    task_type: 'call',
    due_date: now().slice(0, 10),
    repeat: 'yearly',
  });
  await demoReminders(ctx, {
    customerIds: customers.map((c) => c.id),
    jobId: walkedJobId,
    estimatorId: estimator.id,
    contactId: [...people.values()][0],
  });
  // The labels the crew puts on site photos (and pins), with what each marks.
  const tags = [];
  for (const tag of DEMO_PHOTO_TAGS) tags.push(await createPhotoTag(ctx, tag));
  const pages: DemoWorkspace['pages'] = [];
  if (walkedJobId !== null) {
    const assessmentId = await demoAssessment(ctx, walkedJobId, tags[0]!.id);
    await demoPhotos(ctx, walkedJobId, tags[0]!.id);
    // A photo report link, as a sender would make it for the customer (GET …/photo-share-link shows it).
    await createPhotoShareLink(ctx, walkedJobId, {}, 'http://localhost');
    await demoFiles(ctx, walkedJobId);
    // The links a customer would be sent: the walk's report, and the lot's capital plan. Their
    // paths are printed by `serve` after the origin it listens on (an empty origin here).
    const report = await createAssessmentShareLink(ctx, assessmentId, { label: 'For Northgate facilities' }, '');
    pages.push({ label: 'Assessment report', path: report.share_url! });
    const siteId = sites[JOBS[1]!.site]!.id;
    // The walked lot rated from a crew photo: PASER, then PCI (the site's pci).
    await demoConditionRatings(ctx, siteId);
    // The walked lot measured from the demo's own aerial tiles, and edited once.
    await demoMeasurement(ctx, walkedJobId);
    const plan = await enablePlanShareLink(ctx, siteId, '');
    pages.push({ label: 'Capital plan', path: plan.data.share_url! });
  }
  // The entrance landscaping lead's lawn, beds and trees, detected from the demo's yard tiles, and
  // its planting plans read from the plan set on the job.
  if (landscapeJobId !== null) await demoLandscape(ctx, landscapeJobId);
  await demoLeads(ctx);
  await demoReportData(ctx);
  if (readyToSign) pages.push(readyToSign);
  if (walkedEstimateId !== null && walkedJobId !== null) {
    // The walked job's contract: signed by Marcus with a 25% deposit, which its deposit invoice bills.
    const contract = await demoProposal(ctx, walkedEstimateId, origin, {
      changes: {
        deposit_percent: 25,
        custom_sections: [
          {
            title: 'Warranty',
            body: 'We warrant the overlay against base failure and raveling for two years from completion.',
            items: [{ text: 'Crack sealing is warranted for one season', on: true }],
          },
        ],
      },
      signer: { name: JOBS[1]!.contact[0], email: JOBS[1]!.contact[1] },
    });
    pages.push(contract.page);
    pages.push(...(await demoInvoices(ctx, walkedJobId, walkedEstimateId, contract.deposit, origin)));
    const changeOrderPage = await demoChangeOrders(ctx, walkedJobId, origin);
    if (changeOrderPage) pages.push(changeOrderPage);
  }
  pages.push(...(await demoPortal(ctx)));
  await demoOperations(ctx, {
    jobIds: walkedJobId !== null ? [walkedJobId, ...wonJobIds.filter((id) => id !== walkedJobId)] : wonJobIds,
    siteId: sites[0]!.id,
    foremen: [pavingForeman.id, sealingForeman.id],
    estimatorId: estimator.id,
  });
  // So that later starts can print the same links (the key is shown this once).
  await recordDemoLinks(database, firm_id, pages);
  return { firmId: firm_id, name, key, pages };
}

const DEMO_PHOTO_TAGS = [
  { name: 'Alligator cracking', color: '#b45309', description: 'Interconnected cracks: base failure, mill and patch' },
  { name: 'Pothole', color: '#b91c1c', description: 'Open hole deeper than 1 in' },
  { name: 'Drainage', color: '#1d4ed8', description: 'Standing water, clogged inlets, birdbaths' },
  { name: 'Striping', color: '#ca8a04', description: 'Faded or missing lines, stalls and arrows' },
];

/** The walk of the first job's lot, completed: pins for three services, measured, one tagged, one with a photo. */
async function demoAssessment(ctx: Parameters<typeof createPin>[0], jobId: number, tagId: number): Promise<number> {
  const services = await ctx.database.db
    .selectFrom('assessment_services')
    .select(['id', 'name'])
    .where('firm_id', '=', ctx.auth.firm.id)
    .execute();
  const service = (name: string) => services.find((s) => s.name === name)?.id ?? null;
  const { data } = await createSiteAssessment(ctx, { job_id: jobId, title: 'Lot walk with Marcus' });
  const at = { job_id: jobId, latitude: 39.7817, longitude: -89.6501 };
  const east = await createPin(ctx, {
    ...at,
    service_type_id: service('Base failure repair'),
    length_ft: 18,
    width_ft: 12,
    depth_in: 4,
    severity: 'high',
    tag_type_id: tagId,
    defect_type_id: 1,
    name: 'East entrance',
  });
  await createPin(ctx, { ...at, latitude: 39.7819, service_type_id: service('Crack sealing'), measurement_value: 420 });
  await createPin(ctx, {
    ...at,
    longitude: -89.6498,
    service_type_id: service('Crack sealing'),
    measurement_value: 230,
    severity: 'low',
  });
  await createPin(ctx, {
    ...at,
    latitude: 39.7815,
    service_type_id: service('Line striping'),
    measurement_value: 1800,
  });
  await createPin(ctx, { ...at, longitude: -89.6505, notes: 'Clogged inlet by the dumpster', severity: 'high' });
  await demoPinPhoto(ctx, east.id);
  await completeSiteAssessment(ctx, data.id);
  return data.id;
}

/** An issued estimate of starter-catalog services on the job; answers its id. */
async function issuedEstimate(
  ctx: Parameters<typeof createEstimate>[0],
  jobId: number,
  name: string,
  lines: DemoLine[],
): Promise<number> {
  const services = await ctx.database.db
    .selectFrom('catalog_services')
    .select(['id', 'name'])
    .where('firm_id', '=', ctx.auth.firm.id)
    .execute();
  const service = (prefix: string) => services.find((s) => s.name.startsWith(prefix))!.id;
  const estimate = await createEstimate(ctx, { job_id: jobId, name });
  for (const line of lines)
    await addLine(ctx, estimate.id, {
      service_id: service(line.service),
      quantity: line.quantity,
      ...(line.area ? { area_name: line.area } : {}),
      ...(line.optional ? { is_optional: true } : {}),
    });
  await issueEstimate(ctx, estimate.id, {});
  return estimate.id;
}

/** The walked lot's estimate: mill and overlay the east lot, crack seal the west, striping optional. */
const demoEstimate = (ctx: Parameters<typeof createEstimate>[0], jobId: number) =>
  issuedEstimate(ctx, jobId, 'Mill and overlay, east lot', [
    { service: 'Mill and overlay', quantity: 2400, area: 'East lot' },
    { service: 'Crack sealing', quantity: 650, area: 'West lot' },
    { service: 'Line striping', quantity: 1800, area: 'West lot', optional: true },
  ]);
