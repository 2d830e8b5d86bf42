// Change-order stages (document 3, Change order: "Stages: {key, label, meaning}; the meaning sets
// status"): the workspace's own list (setting change_order_stages) or the defaults. A stage's
// meaning is the status a change order moved there takes; send, approve and decline move it to the
// first stage of their meaning, and a new change order starts in the first working stage.
import type { ChangeOrder } from '#db/tables.ts';
import type { ChangeOrderStage, Settings } from '#platform/workspace.ts';

export type StageMeaning = ChangeOrderStage['meaning'];

export const DEFAULT_CHANGE_ORDER_STAGES: readonly ChangeOrderStage[] = [
  { key: 'estimating', label: 'Estimating', meaning: 'working' },
  { key: 'review', label: 'Review', meaning: 'working' },
  { key: 'ready_to_send', label: 'Ready to send', meaning: 'working' },
  { key: 'sent', label: 'Sent', meaning: 'sent' },
  { key: 'approved', label: 'Approved', meaning: 'approved' },
  { key: 'declined', label: 'Declined', meaning: 'declined' },
];

/** The status each meaning sets. */
export const STATUS_OF_MEANING: Record<StageMeaning, Exclude<ChangeOrder['status'], 'void'>> = {
  working: 'draft',
  sent: 'sent',
  approved: 'approved',
  declined: 'declined',
};

/**
 * The workspace's stages in order. The setting's schema makes every meaning appear; a key listed
 * twice counts once (its first entry), so a lookup by key is never ambiguous.
 */
export function changeOrderStages(settings: Pick<Settings, 'change_order_stages'>): readonly ChangeOrderStage[] {
  const custom = settings.change_order_stages;
  if (!custom) return DEFAULT_CHANGE_ORDER_STAGES;
  const seen = new Set<string>();
  return custom.filter((s) => !seen.has(s.key) && (seen.add(s.key), true));
}

/** The first stage of a meaning (every list has one). */
export function firstStage(stages: readonly ChangeOrderStage[], meaning: StageMeaning): string {
  const stage = stages.find((s) => s.meaning === meaning);
  if (!stage) throw new Error(`The change-order stages have no ${meaning} stage`);
  return stage.key;
}

/** A stored stage's label; a key the workspace has since removed from its list shows as itself. */
export const stageLabel = (stages: readonly ChangeOrderStage[], key: string) =>
  stages.find((s) => s.key === key)?.label ?? key;
