// The contact object (document 2, Contact), its channels, links and jobs, and people on a job.
import { Type } from '@sinclair/typebox';
import type { ContactChannel } from '#db/tables.ts';
import { Nullable, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import type { ContactRow, LinkRow, PersonOnJob } from './repo.ts';
import { displayNameOf } from './rules.ts';

const Str = Type.String();
const Int = Type.Integer();
const Bool = Type.Boolean();

const contactFields = {
  id: Int,
  name: Nullable(Str),
  display_name: Str,
  title: Nullable(Str),
  contact_type: Nullable(Str),
  company: Nullable(Str),
  client_account_id: Nullable(Int),
  client_account: NullableObject(Type.Object({ id: Int, name: Str })),
  email: Nullable(Str),
  phone: Nullable(Str),
  notes: Nullable(Str),
  assigned_user_id: Nullable(Int),
  preferred_channel: Nullable(Str),
  do_not_contact: Bool,
  do_not_contact_reason: Nullable(Str),
  birthday: Nullable(Str),
  tags: Type.Array(Str),
  custom_fields: Type.Record(Str, Type.Unknown()),
  archived_at: Nullable(Str),
  created_at: Str,
  updated_at: Str,
};

export const ContactSchema = Type.Object(contactFields);

export const ChannelSchema = Type.Object({
  id: Nullable(Int),
  ref: Str,
  kind: Str,
  label: Str,
  value: Str,
  is_primary: Bool,
  do_not_contact: Bool,
});

export const LinkSchema = Type.Object({
  kind: Str,
  id: Int,
  name: Nullable(Str),
  roles: Type.Array(Str),
  is_primary: Bool,
  current: Bool,
  started_on: Nullable(Str),
  ended_on: Nullable(Str),
});

export const ContactJobSchema = Type.Object({
  job_id: Int,
  name: Str,
  status: Str,
  role: Nullable(Str),
  is_primary: Bool,
  bills_separately: Bool,
});

export const FullContactSchema = Type.Object({
  ...contactFields,
  channels: Type.Array(ChannelSchema),
  links: Type.Array(LinkSchema),
  jobs: Type.Array(ContactJobSchema),
});

export const PersonOnJobSchema = Type.Object({
  contact_id: Int,
  job_id: Int,
  role: Nullable(Str),
  is_primary: Bool,
  bills_separately: Bool,
  created_at: Str,
  contact: Type.Object({
    id: Int,
    name: Nullable(Str),
    display_name: Str,
    title: Nullable(Str),
    contact_type: Nullable(Str),
    email: Nullable(Str),
    phone: Nullable(Str),
    client_account_id: Nullable(Int),
    archived_at: Nullable(Str),
    updated_at: Str,
  }),
});

export const CompanyPersonSchema = Type.Object({ ...contactFields, link: LinkSchema });

export function contactObject(c: ContactRow) {
  return {
    id: c.id,
    name: c.name,
    display_name: displayNameOf(c),
    title: c.title,
    contact_type: c.contact_type,
    company: c.company,
    client_account_id: c.client_account_id,
    client_account:
      c.client_account_id !== null && c.ca_name !== null ? { id: c.client_account_id, name: c.ca_name } : null,
    email: c.email,
    phone: c.phone,
    notes: c.notes,
    assigned_user_id: c.assigned_user_id,
    preferred_channel: c.preferred_channel,
    do_not_contact: c.do_not_contact === 1,
    do_not_contact_reason: c.do_not_contact_reason,
    birthday: c.birthday,
    tags: JSON.parse(c.tags) as string[],
    custom_fields: JSON.parse(c.custom_fields) as Record<string, unknown>,
    archived_at: zWire(c.archived_at),
    created_at: zWire(c.created_at),
    updated_at: zWire(c.updated_at),
  };
}

export type ChannelView = {
  id: number | null;
  ref: string;
  kind: string;
  label: string;
  value: string;
  is_primary: boolean;
  do_not_contact: boolean;
};

export function channelObject(ch: ContactChannel): ChannelView {
  return {
    id: ch.id,
    ref: String(ch.id),
    kind: ch.kind,
    label: ch.label,
    value: ch.value,
    is_primary: ch.is_primary === 1,
    do_not_contact: ch.do_not_contact === 1,
  };
}

export function linkObject(l: LinkRow) {
  return {
    kind: l.kind,
    id: l.target_id,
    name: l.target_name,
    roles: JSON.parse(l.roles) as string[],
    is_primary: l.is_primary === 1,
    current: l.ended_on === null,
    started_on: l.started_on,
    ended_on: l.ended_on,
  };
}

export function contactJobObject(j: {
  job_id: number;
  name: string;
  status: string;
  role: string | null;
  is_primary: number;
  bills_separately: number;
}) {
  return {
    job_id: j.job_id,
    name: j.name,
    status: j.status,
    role: j.role,
    is_primary: j.is_primary === 1,
    bills_separately: j.bills_separately === 1,
  };
}

export function personOnJobObject(p: PersonOnJob) {
  return {
    contact_id: p.contact_id,
    job_id: p.job_id,
    role: p.role,
    is_primary: p.is_primary === 1,
    bills_separately: p.bills_separately === 1,
    created_at: zWire(p.created_at),
    contact: {
      id: p.c_id,
      name: p.c_name,
      display_name: displayNameOf({ name: p.c_name, company: p.c_company, email: p.c_email, phone: p.c_phone }),
      title: p.c_title,
      contact_type: p.c_contact_type,
      email: p.c_email,
      phone: p.c_phone,
      client_account_id: p.c_client_account_id,
      archived_at: zWire(p.c_archived_at),
      updated_at: zWire(p.c_updated_at),
    },
  };
}
