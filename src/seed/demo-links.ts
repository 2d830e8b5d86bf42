// The demo workspace's customer pages, which `serve` prints on every start, not only the one that
// made the demo. A customer link is never stored (GUIDE "Customer pages": only its token's hash
// is): its token is derived from a salt with the server secret (platform/link-tokens.ts), which is
// how the API shows a link again. So the demo records, for each page it printed, the link's kind
// and salt (table demo_links, beside the link's own row), and a later start derives the very same
// links again. A copy of the database alone still opens no page. A link turned off or rotated
// since is printed as such (its token's hash is then among the retired links); the API key, kept
// only as a hash, cannot be shown again, and serve says how to make a new one.
import type { Database } from '#db/database.ts';
import type { DB } from '#db/tables.ts';
import type { Env } from '#platform/context.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import type { LinkKind } from '#platform/customer-links.ts';

type LinkTable = keyof DB &
  (
    | 'assessment_share_links'
    | 'plan_share_links'
    | 'proposals'
    | 'invoices'
    | 'change_orders'
    | 'portal_links'
    | 'reviews'
  );

/** The customer pages the demo prints: each page's path prefix, its link kind and the table of its links. */
/** The page kinds' link kinds are the token derivation's (platform/link-tokens.ts, customer-links.ts). */
const PAGE_KINDS: { prefix: string; kind: LinkKind; table: LinkTable }[] = [
  { prefix: '/share/assessments/', kind: 'assessment_report', table: 'assessment_share_links' },
  { prefix: '/share/plans/', kind: 'capital_plan', table: 'plan_share_links' },
  { prefix: '/share/proposals/', kind: 'proposal', table: 'proposals' },
  { prefix: '/share/invoices/', kind: 'invoice', table: 'invoices' },
  { prefix: '/share/change-orders/', kind: 'change_order', table: 'change_orders' },
  { prefix: '/share/portal/', kind: 'customer_portal', table: 'portal_links' },
  { prefix: '/share/reviews/', kind: 'review', table: 'reviews' },
];

export interface DemoPage {
  label: string;
  /** The page's path (the server's origin goes before it). */
  path: string;
}

/** Records the demo's pages (their links' kinds and salts, found by the tokens' hashes). */
export async function recordDemoLinks(database: Database, firmId: number, pages: readonly DemoPage[]): Promise<void> {
  const rows = [];
  for (const [position, page] of pages.entries()) {
    const known = PAGE_KINDS.find((k) => page.path.startsWith(k.prefix));
    const hash = known ? linkTokenHash(page.path.slice(known.prefix.length)) : null;
    if (!known || hash === null) throw new Error(`The demo printed a page no link kind is known for: ${page.path}`);
    const link = await database.db
      // Every link table has firm_id, token_salt and token_hash: one of them stands for all in the types.
      .selectFrom(known.table as 'proposals')
      .select('token_salt')
      .where('firm_id', '=', firmId)
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    if (!link?.token_salt) throw new Error(`The demo's ${page.label} link is not in ${known.table}`);
    rows.push({
      firm_id: firmId,
      position,
      label: page.label,
      path_prefix: known.prefix,
      link_kind: known.kind,
      token_salt: link.token_salt,
    });
  }
  if (rows.length > 0) await database.db.insertInto('demo_links').values(rows).execute();
}

export interface RecordedDemo {
  firmId: number;
  name: string;
  /** The workspace's owner, whom a new key can be made for. */
  ownerUserId: number | null;
  /** The pages, derived again; `retired` when the link has been turned off or rotated since. */
  pages: (DemoPage & { retired: boolean })[];
}

/** The demo workspace this database holds, with its pages' links; null when it holds none (or not since 028). */
export async function recordedDemo(env: Env): Promise<RecordedDemo | null> {
  const { db } = env.database;
  const rows = await db.selectFrom('demo_links').selectAll().orderBy('firm_id').orderBy('position').execute();
  const firmId = rows[0]?.firm_id;
  if (firmId === undefined) return null;
  const firm = await db
    .selectFrom('firms')
    .select(['name', 'owner_user_id'])
    .where('id', '=', firmId)
    .executeTakeFirst();
  if (!firm) return null;
  const pages = await Promise.all(
    rows
      .filter((r) => r.firm_id === firmId)
      .map(async (r) => {
        const token = await env.deps.links.tokenOf(r.link_kind, r.token_salt);
        const retired = await db
          .selectFrom('retired_links')
          .select('token_hash')
          .where('token_hash', '=', linkTokenHash(token)!)
          .executeTakeFirst();
        return { label: r.label, path: `${r.path_prefix}${token}`, retired: retired !== undefined };
      }),
  );
  return { firmId, name: firm.name, ownerUserId: firm.owner_user_id, pages };
}
