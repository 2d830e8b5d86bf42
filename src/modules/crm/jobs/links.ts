// How a job finds its customer and site from what the caller sent: client_account_id, then
// client_account_external_ref, then the company name (linked or created); the address links or
// creates the site, and a job without a customer is filed under its site's customer.
import type { Executor } from '#db/dialect.ts';
import type { Job, Location } from '#db/tables.ts';
import { ApiError } from '#platform/errors.ts';
import { isBlank } from '#platform/records.ts';
import type { Settings } from '#platform/workspace.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { upsertClientAccountIn } from '#crm/client-accounts/service.ts';
import { resolveCustomerId, upsertLocationIn } from '#crm/locations/service.ts';
import type { JobInput } from './schemas.ts';

/** Customer columns implied by the input, or {} when it names no customer. */
export async function customerColumns(
  db: Executor,
  firmId: number,
  input: JobInput,
  company: string | null | undefined,
): Promise<Partial<Job>> {
  const id = await resolveCustomerId(db, firmId, input);
  if (id === null) return { client_account_id: null };
  if (id !== undefined) {
    if (company !== undefined) return { client_account_id: id };
    const account = await findClientAccount(db, firmId, id);
    return { client_account_id: id, company: account!.name };
  }
  if (company) {
    const { account } = await upsertClientAccountIn(db, firmId, { name: company });
    return { client_account_id: account.id };
  }
  return {};
}

/**
 * The site at `address`, linked or created. Returns null when no site can be made because the
 * workspace requires a customer on sites and the job has none: the job is still saved.
 */
export async function siteForAddress(
  db: Executor,
  firmId: number,
  settings: Settings,
  address: string,
  customerId: number | null,
): Promise<Location | null> {
  try {
    const { location } = await upsertLocationIn(db, firmId, settings, { address, client_account_id: customerId });
    return location;
  } catch (err) {
    if (err instanceof ApiError && err.body.code === 'company_required') return null;
    throw err;
  }
}

/** Columns that link a job to `site`, filling the job's blank address and customer from it. */
export async function siteColumns(
  db: Executor,
  firmId: number,
  job: Pick<Job, 'address' | 'client_account_id' | 'company'>,
  site: Location,
): Promise<Partial<Job>> {
  const out: Partial<Job> = { location_id: site.id };
  if (isBlank(job.address)) out.address = site.address;
  if (job.client_account_id === null && site.client_account_id !== null) {
    out.client_account_id = site.client_account_id;
    if (isBlank(job.company)) out.company = (await findClientAccount(db, firmId, site.client_account_id))?.name ?? null;
  }
  return out;
}
