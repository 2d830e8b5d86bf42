// The demo workspace's lead inbox, taken in through the same intake POST /v1/leads runs: a new
// lead waiting for a call (its alert queued for the assignee), one someone called, one moving
// forward (its job in the next stage), one dismissed, and one the auto-spam rule caught.
import type { ServiceContext } from '#platform/context.ts';
import { convertLead, createLead, dismissLead, markContacted } from '#crm/index.ts';

export async function demoLeads(ctx: ServiceContext): Promise<void> {
  await createLead(ctx, {
    name: 'Marcus Bell',
    email: 'marcus@bellproperties.example',
    phone: '(614) 555-0191',
    company: 'Bell Properties',
    address: '400 Polaris Pkwy, Westerville, OH 43082',
    services: ['Sealcoating', 'Line Striping'],
    timing: 'this_season',
    property_type: 'Commercial',
    message:
      'Two retail lots, about 80,000 sq ft together. We would like them sealed and restriped before the holidays.',
    source: 'Website form',
    utm: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'fall-sealcoating' },
  });
  const called = await createLead(ctx, {
    name: 'Teresa Nguyen',
    phone: '614-555-0172',
    address: '88 Willow Bend, Dublin, OH 43017',
    services: ['Asphalt Paving'],
    timing: '30_days',
    property_type: 'Residential',
    message: 'Driveway is crumbling at the apron; looking for a replacement quote.',
    notify: false,
  });
  await markContacted(ctx, called.id, { how: 'call', note: 'Walked through options; visiting Thursday to measure.' });
  const moving = await createLead(ctx, {
    name: 'Greg Albright',
    email: 'galbright@stmarkchurch.example',
    company: "St. Mark's Church",
    address: '1200 E Broad St, Columbus, OH 43205',
    services: ['Crack Filling', 'Sealcoating'],
    timing: 'asap',
    property_type: 'Church',
    notify: false,
  });
  await convertLead(ctx, moving.id, {});
  const gone = await createLead(ctx, {
    name: 'Kim Park',
    email: 'kim.park@example.com',
    services: ['Snow Removal'],
    timing: 'budgeting',
    message: 'Just pricing out snow removal for next year.',
    notify: false,
  });
  await dismissLead(ctx, gone.id, {});
  await createLead(ctx, {
    name: 'Rank First SEO',
    email: 'offers@mailinator.com',
    message: 'https://rank-first.example/offer',
    notify: false,
  });
}
