// Leads benchmark (docs/performance.md, "Leads"): POST /v1/leads (the full intake: match or create
// the person and their company, open the job with its site, route, add the Call new lead follow-up,
// save the lead and queue the alert, in one transaction) against POST /v1/jobs (customer, site and
// job) in the same run. The target: leads at 0.5x the job create or better.
//
//   npm run bench:leads                       SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:leads   PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:leads -- --quick            one short round
//   npm run bench:leads -- --smoke            seconds, for CI (bench/mode.ts)
//
// Every request creates new records (a new person, company and address each time), so the intake
// measured is the creating one, not the cheaper matching one. The rounds and the report are
// compare-creates.ts's.
import { compareCreates } from './compare-creates.ts';
import { jobBody } from './job-body.ts';

let serial = 0;

await compareCreates({
  name: 'leads',
  title: 'Leads benchmark',
  target: 0.5,
  baseline: { label: 'POST /v1/jobs (customer, site, job)', path: '/v1/jobs', body: jobBody },
  measured: {
    label: 'POST /v1/leads (full intake)',
    path: '/v1/leads',
    body: () => {
      const n = ++serial;
      return {
        name: `Person ${n}`,
        company: `Bench Customer ${n}`,
        address: `${n} Bench Ave, Columbus, OH 43215`,
        email: `person${n}@bench.example.com`,
        phone: `614555${String(n % 10_000).padStart(4, '0')}`,
        services: ['Sealcoating'],
        timing: 'this_season',
        message: 'Our lot needs sealing before winter.',
      };
    },
  },
});
