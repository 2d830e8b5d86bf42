// A person's phones and emails (document 2, Contacts: channels). One primary per kind, the first
// of each kind is primary, the next becomes primary when the primary goes; the contact's email
// and phone mirror the primaries.
import type { Contact, ContactChannel } from '#db/tables.ts';
import { updateChanged } from '#db/update-changed.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, conflict, notFound } from '#platform/errors.ts';
import { recordIdOf } from '#platform/schemas.ts';
import { now } from '#platform/time.ts';
import { channelRows, findContact } from './repo.ts';
import { emailField, phoneField } from '#platform/email-phone.ts';
import { CHANNEL_KINDS, CHANNEL_LABELS, DEFAULT_LABEL, valueKey, type ChannelKind } from './rules.ts';
import { channelObject } from './serialize.ts';
import {
  contactNotFound,
  insertChannel,
  makePrimaryChannel,
  materializeChannels,
  primaryValues,
  saveContact,
  type Trx,
} from './write.ts';
import type { ChannelInput } from './schemas.ts';

const channelNotFound = () => notFound('Channel not found', { message: 'The person has no channel with that ref' });

/** The stored form of a value of `kind`, or the channel endpoints' 400. */
function cleanValue(kind: ChannelKind, value: string | undefined): string {
  if ((value?.trim() ?? '') === '') throw badRequest('value is required', { field: 'value' });
  return (
    kind === 'email' ? emailField(value, 'value', "That email doesn't look right.") : phoneField(value, 'value')
  )!;
}

function cleanLabel(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  const l = label.trim().toLowerCase();
  if (!(CHANNEL_LABELS as readonly string[]).includes(l))
    throw badRequest(`label must be one of ${CHANNEL_LABELS.join(', ')}`, { field: 'label' });
  return l;
}

function duplicate(existing: ContactChannel) {
  return conflict('That one is already on file.', { code: 'duplicate_channel', channel: channelObject(existing) });
}

async function liveContact(ctx: ServiceContext, trx: Trx, contactId: number) {
  const contact = await findContact(trx, ctx.auth.firm.id, contactId);
  if (!contact) throw contactNotFound();
  await materializeChannels(trx, contact);
  return contact;
}

/**
 * A channel by ref: its id, or `v-<kind>-<n>`, the n-th (from 0) entry of that kind in the
 * order the contact shows them (the app's refs for entries it has not saved yet).
 */
async function channelByRef(trx: Trx, contactId: number, ref: string): Promise<ContactChannel> {
  const rows = await channelRows(trx, contactId);
  let found: ContactChannel | undefined;
  const id = recordIdOf(ref);
  if (id !== null) found = rows.find((r) => r.id === id);
  else {
    const m = /^v-(phone|email)-(\d{1,4})$/.exec(ref);
    if (m) found = rows.filter((r) => r.kind === m[1])[Number(m[2])];
  }
  if (!found) throw channelNotFound();
  return found;
}

/** Mirrors the primaries onto the contact and moves its updated_at. */
/** The contact's mirrors of its primary channels; `touch` (a channel changed) moves its updated_at. */
async function settle(trx: Trx, contact: Contact, touch = true) {
  await saveContact(trx, contact, await primaryValues(trx, contact.id), touch);
}

export async function addChannel(ctx: ServiceContext, contactId: number, input: ChannelInput) {
  const kind = input.kind?.trim().toLowerCase();
  if (!kind || !(CHANNEL_KINDS as readonly string[]).includes(kind))
    throw badRequest('kind must be phone or email', { field: 'kind' });
  const k = kind as ChannelKind;
  const value = cleanValue(k, input.value);
  const label = cleanLabel(input.label) ?? DEFAULT_LABEL[k];
  return inWorkspaceTransaction(ctx, async (trx) => {
    const contact = await liveContact(ctx, trx, contactId);
    const ofKind = (await channelRows(trx, contactId)).filter((r) => r.kind === k);
    const twin = ofKind.find((r) => r.value_key === valueKey(k, value));
    if (twin) throw duplicate(twin);
    const primary = ofKind.length === 0 || input.is_primary === true;
    const channel = await insertChannel(trx, contact, k, value, { primary, label, doNotContact: input.do_not_contact });
    if (primary) await makePrimaryChannel(trx, contactId, k, channel.id);
    await settle(trx, contact);
    return channelObject(channel);
  });
}

export async function updateChannel(
  ctx: ServiceContext,
  contactId: number,
  ref: string,
  input: Omit<ChannelInput, 'kind'>,
) {
  const label = cleanLabel(input.label);
  return inWorkspaceTransaction(ctx, async (trx) => {
    const contact = await liveContact(ctx, trx, contactId);
    const channel = await channelByRef(trx, contactId, ref);
    const changes: Partial<ContactChannel> = {};
    if (input.value !== undefined) {
      const value = cleanValue(channel.kind, input.value);
      const key = valueKey(channel.kind, value);
      const twin = (await channelRows(trx, contactId)).find(
        (r) => r.kind === channel.kind && r.value_key === key && r.id !== channel.id,
      );
      if (twin) throw duplicate(twin);
      changes.value = value;
      changes.value_key = key;
    }
    if (label !== undefined) changes.label = label;
    if (input.do_not_contact !== undefined) changes.do_not_contact = input.do_not_contact ? 1 : 0;
    // Only a real change moves the channel's and the person's updated_at (an empty PATCH changes nothing).
    let changed =
      (await updateChanged(trx, 'contact_channels', channel, changes, { stamp: { updated_at: now() } })) !== null;
    if (input.is_primary === true && channel.is_primary === 0) {
      await makePrimaryChannel(trx, contactId, channel.kind, channel.id);
      changed = true;
    }
    if (input.is_primary === false && channel.is_primary === 1) {
      // The next of the kind takes over; a person's only entry of a kind stays primary.
      const next = (await channelRows(trx, contactId)).find((r) => r.kind === channel.kind && r.id !== channel.id);
      if (next) await makePrimaryChannel(trx, contactId, channel.kind, next.id);
      changed ||= next !== undefined;
    }
    await settle(trx, contact, changed);
    const saved = await trx
      .selectFrom('contact_channels')
      .selectAll()
      .where('id', '=', channel.id)
      .executeTakeFirstOrThrow();
    return channelObject(saved);
  });
}

export async function deleteChannel(ctx: ServiceContext, contactId: number, ref: string): Promise<void> {
  await inWorkspaceTransaction(ctx, async (trx) => {
    const contact = await liveContact(ctx, trx, contactId);
    const channel = await channelByRef(trx, contactId, ref);
    await trx.deleteFrom('contact_channels').where('id', '=', channel.id).execute();
    // primaryValues makes the next of the kind (in the order added) primary when this one was.
    await settle(trx, contact);
  });
}
