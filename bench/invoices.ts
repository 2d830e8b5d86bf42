// Invoice benchmark (docs/performance.md, "Invoices"): POST /v1/invoices (a draft check invoice of
// three line items billed from an estimate, with its client, project and remit-to defaults from the
// job, its customer and the last invoice, and invoice_created in the feed, in one transaction)
// against POST /v1/jobs (customer, site and job) in the same run. The target: invoices at
// 0.5x the job create or better.
//
//   npm run bench:invoices                       SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:invoices   PostgreSQL
//   npm run bench:invoices -- --quick            one short round
//   npm run bench:invoices -- --smoke            seconds, for CI (bench/mode.ts)
//
// Invoices go to a pool of 50 jobs (each with a customer and an estimate), round robin, so one
// job's invoices do not all land on the same rows. The rounds and the report are compare-creates.ts's.
import { compareCreates } from './compare-creates.ts';
import { jobBody } from './job-body.ts';

const JOBS = 50;
const pool: { job: number; estimate: number }[] = [];
let serial = 0;

await compareCreates({
  name: 'invoices',
  title: 'Invoice benchmark',
  target: 0.5,
  baseline: { label: 'POST /v1/jobs (customer, site, job)', path: '/v1/jobs', body: jobBody },
  measured: {
    label: 'POST /v1/invoices (3 lines, from an estimate)',
    path: '/v1/invoices',
    body: () => {
      const n = ++serial;
      const { job, estimate } = pool[n % pool.length]!;
      return {
        job_id: job,
        estimate_id: estimate,
        billing_type: 'milestone',
        line_items: [
          { description: 'Milling and paving, phase 1', amount: 12_450.5 },
          { description: 'Crack sealing', amount: 1_875.25 },
          { description: 'Line striping', amount: 640 },
        ],
        discount: 250,
        tax: 412.37,
        reference_number: `PO-${n}`,
      };
    },
  },
  async prepare(call) {
    for (let i = 0; i < JOBS; i++) {
      const job = (
        await call('/v1/jobs', {
          name: `Invoice bench job ${i}`,
          company: `Invoice Customer ${i}`,
          contact_name: `Payer ${i}`,
          contact_email: `payer${i}@bench.example.com`,
          address: `${i} Billing St, Columbus, OH 43215`,
        })
      ).data;
      const estimate = (await call('/v1/estimates', { job_id: job.id })).data;
      pool.push({ job: job.id, estimate: estimate.id });
    }
    // The first invoice puts a remit-to on file for the rest (sent once, as an office would).
    const { job, estimate } = pool[0]!;
    await call('/v1/invoices', {
      job_id: job,
      estimate_id: estimate,
      line_items: [{ description: 'Setup', amount: 1 }],
      remit_to_name: 'Bench Paving',
      remit_to_address: '1 Plant Rd, Columbus, OH 43228',
    });
  },
});
