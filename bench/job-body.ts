// The baseline create of the compare-creates benchmarks: POST /v1/jobs making a new customer, site
// and job each time (new names, emails and addresses, so nothing is matched).
let serial = 0;

export function jobBody() {
  const n = ++serial;
  return {
    name: `Bench job ${n}`,
    company: `Bench Customer J${n}`,
    address: `${n} Bench Blvd, Columbus, OH 43215`,
    contact_name: `Person J${n}`,
    contact_email: `jperson${n}@bench.example.com`,
    contact_phone: '6145550100',
    job_type: ['Sealcoating'],
    description: 'Our lot needs sealing before winter.',
  };
}
