// The worked example of docs/pricing.md ("Maple Street Plaza parking lot"), as engine input.
import type { EstimateInput } from '#engines/pricing/index.ts';

export const plazaExample: EstimateInput = {
  pricing: { markup_method: 'markup', markup_rate: 0.3, contingency_rate: null, tax_rate: 0.07, minimum_charge: null, price_list_id: null },
  job_costs: { mobilization: 850 },
  areas: [
    {
      id: 1,
      name: 'Main lot',
      services: [
        {
          id: 101, name: '2" asphalt overlay', estimating_mode: 'detailed', quantity: 1200, unit: 'SY',
          inputs: { depth_in: 2 },
          cost_lines: [
            { id: 1, type: 'crew', name: 'Paving crew (6)', unit: 'day', unit_cost: 1850, quantity_formula: 'ceil(quantity / 800)' },
            { id: 2, type: 'equipment', name: 'Paver and two rollers', unit: 'day', unit_cost: 1150, quantity_formula: 'ceil(quantity / 800)' },
            { id: 3, type: 'material', name: 'Hot-mix asphalt', unit: 'ton', unit_cost: 78.5, quantity_formula: 'quantity * depth_in * 110 / 2000', waste_factor: 0.05 },
            {
              id: 4, type: 'trucking', name: 'Asphalt haul', unit_cost: 95, quantity_formula: 'quantity * depth_in * 110 / 2000', waste_factor: 0.05,
              haul: { material: 'asphalt', truck_capacity_tons: 18, drive_hr: 0.6, load_unload_hr: 0.5, automatic_driving_time: true, route: null },
            },
            { id: 5, type: 'equipment', name: 'Alternate: tack distributor truck', unit: 'day', unit_cost: 450, manual_quantity: 1, is_alternate: true },
          ],
        },
        { id: 102, name: 'Crack seal', estimating_mode: 'unit_costing', quantity: 850, unit: 'LF', unit_cost: 0.85, pricing_method: 'margin', pricing_rate: 0.35 },
        { id: 103, name: 'Sealcoat (option)', estimating_mode: 'unit_costing', quantity: 1200, unit: 'SY', unit_cost: 0.95, unit_price: 1.65, is_optional: true },
      ],
    },
  ],
};
