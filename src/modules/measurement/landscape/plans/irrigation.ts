// The irrigation a plan's irrigation run reads, as the takeoff keeps it (document 3: irrigation
// {heads_and_valves [{id, name, unit, quantity, quantity_source, dot_count, pages, plan_quantity}],
// pipes [{id, name, linear_feet}], zones [{zone, valve_size, gpm, heads, lateral_lf}]}). A head or
// valve counts one per symbol found; when none is found but the legend states a number, that
// typed number. Ids number the rows in the legend's order. Pure.
import type { IrrigationFindings } from '#engines/plans/index.ts';
import type { StoredIrrigation } from './quantities.ts';

export function irrigationOf(f: IrrigationFindings): StoredIrrigation {
  return {
    heads_and_valves: f.heads_and_valves.map((h, i) => {
      const typed = h.dot_count === 0 && h.plan_quantity !== null;
      return {
        id: i + 1,
        name: h.name,
        kind: h.kind,
        unit: 'EA',
        quantity: typed ? h.plan_quantity! : h.dot_count,
        quantity_source: typed ? 'typed' : 'dots',
        dot_count: h.dot_count,
        pages: h.pages,
        plan_quantity: h.plan_quantity,
      };
    }),
    pipes: f.pipes.map((p, i) => ({ id: i + 1, name: p.name, linear_feet: p.linear_feet })),
    zones: f.zones.map((z) => ({
      zone: z.zone,
      valve_size: z.valve_size,
      gpm: z.gpm,
      heads: z.heads,
      lateral_lf: z.lateral_lf,
    })),
  };
}
