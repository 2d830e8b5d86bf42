// The merge mover of a record that holds at most one customer link (a customer's portal link, a
// site's capital plan link). When the kept record has none, the merged-away record's link moves to
// it and keeps working; when the kept record has its own, the merged-away link stops ("replaced by
// a newer one", 410, if it was on) and its row goes.
import type { Transaction } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { type LinkKind, retireLink } from '#platform/customer-links.ts';
import type { MergeMover } from '#src/area.ts';

interface OwnedLink {
  id: number;
  enabled: number;
  token_hash: string;
}

export interface OwnedLinkKind {
  /** Plural noun for the merge preview ('portal links'). */
  label: string;
  kind: LinkKind;
  /** The record's link, if it has one. */
  find(db: Executor, firmId: number, ownerId: number): Promise<OwnedLink | undefined>;
  /** Hands link `linkId` to record `toId`. */
  reassign(trx: Transaction<DB>, linkId: number, toId: number): Promise<void>;
  remove(trx: Transaction<DB>, linkId: number): Promise<void>;
}

export function ownedLinkMergeMover(o: OwnedLinkKind): MergeMover {
  return {
    label: o.label,
    async count(db, fromId, scope) {
      return (await o.find(db, scope.firmId, fromId)) ? 1 : 0;
    },
    async move(trx, fromId, toId, scope) {
      const away = await o.find(trx, scope.firmId, fromId);
      if (!away) return;
      if (!(await o.find(trx, scope.firmId, toId))) return o.reassign(trx, away.id, toId);
      if (away.enabled === 1)
        await retireLink(trx, { firmId: scope.firmId, kind: o.kind, tokenHash: away.token_hash, reason: 'replaced' });
      await o.remove(trx, away.id);
    },
  };
}
