// Spreading money over lines (docs/pricing.md sections 7 and 9): the subtotal over the listed
// lines (pinned prices honoured where another line can take the difference), optional lines at
// their own price, and a bundle master's allocated price over its sub-lines.
import { compareIds, idKey, type Ctx, type Id } from './inputs.ts';
import type { LineCalc, LineTotals } from './lines.ts';

/**
 * Split `amount` cents over items in proportion to their weights (cents, negatives count as 0;
 * all-zero weights split evenly). Largest remainder: everyone gets the floor of their exact share,
 * the leftover cents go one each to the largest fractional parts, ties to the smaller id.
 * The shares always sum exactly to `amount`.
 */
export function spreadCents(amount: bigint, items: { id: Id; weight: bigint }[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (items.length === 0) return out;
  const sign = amount < 0n ? -1n : 1n;
  const abs = amount * sign;
  let weights = items.map((i) => (i.weight > 0n ? i.weight : 0n));
  let total = weights.reduce((a, b) => a + b, 0n);
  if (total === 0n) {
    weights = items.map(() => 1n);
    total = BigInt(items.length);
  }
  const shares = items.map((item, k) => {
    const exact = abs * weights[k];
    return { id: item.id, base: exact / total, rem: exact % total };
  });
  let left = abs - shares.reduce((a, s) => a + s.base, 0n);
  const order = [...shares].sort((x, y) => (x.rem === y.rem ? compareIds(x.id, y.id) : x.rem > y.rem ? -1 : 1));
  for (const s of order) {
    if (left === 0n) break;
    s.base += 1n;
    left -= 1n;
  }
  for (const s of shares) out.set(idKey(s.id), s.base * sign);
  return out;
}

/**
 * Phase 7: every line's allocated price. Everything that is not a listed line's own price (job
 * costs, hidden lines, pinned differences) is spread over the listed counted lines; answers those
 * lines (by id), which tax is charged on.
 */
export function allocatePrices(ctx: Ctx, lines: LineTotals, subtotal: bigint): LineCalc[] {
  const { top, counted } = lines;
  const targets = counted.filter((c) => !c.hidden).sort((a, b) => compareIds(a.input.id, b.input.id));
  let pinned = targets.filter((c) => c.override !== null);
  let others = targets.filter((c) => c.override === null);
  if (others.length === 0 && pinned.length > 0) {
    const pinnedSum = pinned.reduce((s, c) => s + c.override!, 0n);
    if (pinnedSum !== subtotal) {
      ctx.warnings.push(
        'price_override cannot be honoured: no other listed line can take the difference; overrides ignored',
      );
      others = pinned;
      pinned = [];
    }
  }
  for (const c of pinned) c.allocated = c.override;
  if (targets.length === 0 && subtotal !== 0n)
    ctx.warnings.push('no listed line to carry the subtotal on the proposal');
  const spreadAmount =
    subtotal - pinned.reduce((s, c) => s + c.override!, 0n) - others.reduce((s, c) => s + c.price, 0n);
  const shares = spreadCents(
    spreadAmount,
    others.map((c) => ({ id: c.input.id, weight: c.price })),
  );
  for (const c of others) c.allocated = c.price + (shares.get(idKey(c.input.id)) ?? 0n);
  if (targets.some((c) => c.allocated! < 0n)) ctx.warnings.push('a listed line has a negative allocated price');
  // optional lines show their own (or pinned) price; hidden optional lines are not offered
  for (const c of top) {
    if (!c.optional) continue;
    if (c.hidden) {
      ctx.warnings.push(`${c.path}: a hidden optional line is not offered and not in optional_total`);
      continue;
    }
    c.allocated = c.override ?? c.price;
  }
  // a bundle's sub-lines share the master's allocated price in proportion to their prices
  for (const m of top) {
    if (!m.input.is_bundle_master || m.allocated === null || m.children.length === 0) continue;
    const parts = spreadCents(
      m.allocated,
      m.children.map((ch) => ({ id: ch.input.id, weight: ch.price })),
    );
    for (const ch of m.children) ch.allocated = parts.get(idKey(ch.input.id)) ?? 0n;
  }
  for (const c of top) {
    if (c.override !== null && (c.hidden || c.allocated !== c.override)) {
      ctx.warnings.push(
        `${c.path}: price_override not applied (${c.hidden ? 'hidden line' : 'nothing to take the difference'})`,
      );
    }
  }
  return targets;
}
