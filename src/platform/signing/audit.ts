// A signed document's audit trail (proposals and change orders): what the customer did on its page,
// oldest first, append-only: opened, consented, signed, declined, each with the UTC time, the IP and
// the user agent. Each record kind keeps its steps in its own table (proposal_audit_events,
// change_order_audit_events) with this row shape; the wire shows them alike.
import { Type } from '@sinclair/typebox';
import { NullableObject, NullableString } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';

/** The longest a user agent is kept in an audit trail. */
const USER_AGENT_MAX = 500;

/** Who did something on a page, as an audit trail records it. */
export interface Visitor {
  ip: string | null;
  userAgent: string | null;
}

/** The steps of a trail. */
export type AuditKind = 'opened' | 'consented' | 'signed' | 'declined';

/** A step as its row keeps it. */
export interface StoredAuditStep {
  kind: string;
  at: string;
  ip: string | null;
  user_agent: string | null;
  /** JSON text, or null. */
  data: string | null;
}

/**
 * One step of a signer's audit trail (opened, consented, signed, declined) as its row keeps it: the
 * UTC time, where from (the user agent cut to a sane length) and what else the step recorded.
 */
export function auditStep<K extends string>(kind: K, at: string, who: Visitor, data?: object) {
  return {
    kind,
    at,
    ip: who.ip,
    user_agent: who.userAgent === null ? null : who.userAgent.slice(0, USER_AGENT_MAX),
    data: data === undefined ? null : JSON.stringify(data),
  };
}

export const AuditEventSchema = Type.Object({
  kind: Type.String({ description: 'opened, consented, signed, declined' }),
  at: Type.String({ description: 'UTC, Z' }),
  ip: NullableString(),
  user_agent: NullableString(),
  data: NullableObject(Type.Record(Type.String(), Type.Unknown())),
});

/** A stored audit-trail row (proposals' and change orders' share the shape) on the wire. */
export function auditEntry(a: StoredAuditStep) {
  return {
    kind: a.kind,
    at: zWire(a.at),
    ip: a.ip,
    user_agent: a.user_agent,
    data: a.data === null ? null : (JSON.parse(a.data) as Record<string, unknown>),
  };
}
