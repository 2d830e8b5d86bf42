// Catalog records on the wire: money in dollars, exact fractions as numbers, Z timestamps.
import type { CatalogCostLine, CatalogItem, CatalogService, EstimateTemplate, PriceList } from '#db/tables.ts';
import { centsToDollars } from '#platform/money.ts';
import { zWire } from '#platform/time.ts';

/** Stored decimal text ('0.05') as the wire number; estimates read their exact decimals the same way. */
export const decimal = (text: string | null): number | null => (text === null ? null : Number(text));

export function itemObject(i: CatalogItem) {
  return {
    id: i.id,
    kind: i.kind,
    name: i.name,
    unit: i.unit,
    unit_cost: centsToDollars(i.unit_cost_cents),
    attributes: JSON.parse(i.attributes) as Record<string, unknown>,
    archived_at: zWire(i.archived_at),
    created_at: zWire(i.created_at),
    updated_at: zWire(i.updated_at),
  };
}

export function costLineObject(l: CatalogCostLine) {
  return {
    id: l.id,
    service_id: l.service_id,
    position: l.position,
    type: l.type,
    catalog_item_id: l.catalog_item_id,
    name: l.name,
    unit: l.unit,
    unit_cost: centsToDollars(l.unit_cost_cents),
    quantity_formula: l.quantity_formula,
    quantity: decimal(l.quantity),
    waste_factor: Number(l.waste_factor),
    billing: l.billing,
    haul_material: l.haul_material,
    dump_material: l.dump_material,
    pricing_method: l.pricing_method,
    pricing_rate: decimal(l.pricing_rate),
  };
}

export function serviceSummary(s: CatalogService) {
  return {
    id: s.id,
    name: s.name,
    service_type: s.name,
    category: s.category,
    unit: s.unit,
    estimating_mode: s.estimating_mode,
    unit_cost: centsToDollars(s.unit_cost_cents),
    unit_price: centsToDollars(s.unit_price_cents),
    pricing_method: s.pricing_method,
    pricing_rate: decimal(s.pricing_rate),
    cost_code: s.cost_code,
    proposal_text: s.proposal_text,
    what_to_expect: s.what_to_expect,
    internal_scope: s.internal_scope,
    archived_at: zWire(s.archived_at),
    created_at: zWire(s.created_at),
    updated_at: zWire(s.updated_at),
  };
}

export function serviceObject(s: CatalogService, lines: CatalogCostLine[]) {
  return { ...serviceSummary(s), cost_lines: lines.map(costLineObject) };
}

export function priceListSummary(p: PriceList) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    is_default: p.is_default === 1,
    archived_at: zWire(p.archived_at),
    created_at: zWire(p.created_at),
    updated_at: zWire(p.updated_at),
  };
}

export interface TemplateAreaStored {
  name: string;
  services: { service_id: number; quantity: string | null }[];
}

export function templateAreas(t: EstimateTemplate): TemplateAreaStored[] {
  return JSON.parse(t.areas) as TemplateAreaStored[];
}

export function templateBase(t: EstimateTemplate) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    archived_at: zWire(t.archived_at),
    created_at: zWire(t.created_at),
    updated_at: zWire(t.updated_at),
  };
}
