// The catalog every new workspace starts with (the demo one included), in the admin import
// format and applied through the same import code. Costs are believable 2026 US figures for a
// paving, sealcoating, striping and landscaping contractor; every workspace edits its own copy.
//
// Quantity formulas use `quantity`, the line's measured quantity in the service's unit.
// Asphalt tonnage: SY x depth (in) x 0.0575 tons per SY-inch (about 115 lb/SY/in compacted).
// A trucking line with a haul_material is a haul: its formula gives the tons hauled, and the
// estimate turns them into truck hours (loads by the truck's capacity_tons, times the cycle of
// driving plus loading and dumping; docs/pricing.md).
import type { CatalogDocumentInput } from '#estimating/catalog/document.ts';

const hma = (depth: number) => `quantity * ${depth} * 0.0575`;

export const STARTER_CATALOG: CatalogDocumentInput = {
  version: 1,
  items: [
    // Crews (loaded labor: wages, burden, foreman, pickup).
    { key: 'paving_crew', kind: 'crew', name: 'Paving crew (6)', unit: 'DAY', unit_cost: 1850, attributes: { crew_size: 6, hours_per_day: 8, hourly_rate: 231.25 } },
    { key: 'sealcoat_crew', kind: 'crew', name: 'Sealcoat crew (3)', unit: 'DAY', unit_cost: 780, attributes: { crew_size: 3, hours_per_day: 8 } },
    { key: 'striping_crew', kind: 'crew', name: 'Striping crew (2)', unit: 'HR', unit_cost: 70, attributes: { crew_size: 2 } },
    { key: 'landscape_crew', kind: 'crew', name: 'Landscape crew (3)', unit: 'HR', unit_cost: 96, attributes: { crew_size: 3 } },
    { key: 'patch_crew', kind: 'crew', name: 'Patch crew (4)', unit: 'DAY', unit_cost: 1240, attributes: { crew_size: 4, hours_per_day: 8 } },
    // Equipment (owned-equipment hourly rates incl. fuel).
    { key: 'paver', kind: 'equipment', name: 'Asphalt paver', unit: 'HR', unit_cost: 95, attributes: {} },
    { key: 'roller', kind: 'equipment', name: 'Roller, 10-ton', unit: 'HR', unit_cost: 55, attributes: { weight_tons: 10 } },
    { key: 'mill_skid', kind: 'equipment', name: 'Skid steer with mill head', unit: 'HR', unit_cost: 120, attributes: {} },
    { key: 'melter', kind: 'equipment', name: 'Crack-seal melter', unit: 'HR', unit_cost: 45, attributes: {} },
    { key: 'spray_rig', kind: 'equipment', name: 'Sealcoat spray rig', unit: 'HR', unit_cost: 38, attributes: { tank_gal: 550 } },
    { key: 'line_striper', kind: 'equipment', name: 'Line striper', unit: 'HR', unit_cost: 22, attributes: {} },
    { key: 'mower', kind: 'equipment', name: 'Zero-turn mower, 60"', unit: 'HR', unit_cost: 18, attributes: { deck_in: 60 } },
    { key: 'mini_ex', kind: 'equipment', name: 'Mini excavator', unit: 'HR', unit_cost: 65, attributes: {} },
    { key: 'plow_truck', kind: 'equipment', name: 'Plow truck, 8\' blade', unit: 'HR', unit_cost: 85, attributes: {} },
    // Materials.
    { key: 'hma', kind: 'material', name: 'HMA surface mix (9.5 mm)', unit: 'TON', unit_cost: 78, attributes: {} },
    { key: 'base_hma', kind: 'material', name: 'HMA base mix (19 mm)', unit: 'TON', unit_cost: 72, attributes: {} },
    { key: 'tack', kind: 'material', name: 'Tack coat (SS-1h)', unit: 'GAL', unit_cost: 4.25, attributes: {} },
    { key: 'crack_sealant', kind: 'material', name: 'Hot-pour crack sealant', unit: 'LB', unit_cost: 1.1, attributes: {} },
    { key: 'sealer', kind: 'material', name: 'Asphalt emulsion sealer (coal-tar-free)', unit: 'GAL', unit_cost: 2.85, attributes: {} },
    { key: 'sand', kind: 'material', name: 'Silica sand', unit: 'TON', unit_cost: 38, attributes: {} },
    { key: 'paint', kind: 'material', name: 'Traffic paint (waterborne)', unit: 'GAL', unit_cost: 32, attributes: {} },
    { key: 'mulch', kind: 'material', name: 'Hardwood mulch, double-shredded', unit: 'CY', unit_cost: 36, attributes: {} },
    { key: 'topsoil', kind: 'material', name: 'Screened topsoil', unit: 'CY', unit_cost: 34, attributes: {} },
    { key: 'sod', kind: 'material', name: 'Sod, Kentucky bluegrass blend', unit: 'SF', unit_cost: 0.55, attributes: {} },
    // Trucks.
    { key: 'tri_axle', kind: 'truck', name: 'Tri-axle dump truck', unit: 'HR', unit_cost: 105, attributes: { capacity_tons: 16 } },
    // Dump sites.
    { key: 'millings_recycler', kind: 'dump_site', name: 'Millings recycler', unit: 'TON', unit_cost: 8, attributes: { accepts: 'millings' } },
    { key: 'spoil_site', kind: 'dump_site', name: 'Spoil disposal site', unit: 'TON', unit_cost: 22, attributes: { accepts: 'spoil' } },
    // Subcontractors.
    { key: 'concrete_sub', kind: 'subcontractor', name: 'Concrete flatwork subcontractor', unit: 'SF', unit_cost: 9.5, attributes: { trade: 'concrete' } },
  ],
  services: [
    ...[1.5, 2].map((depth) => ({
      name: `Asphalt overlay, ${depth}"`, category: 'Paving', unit: 'SY', estimating_mode: 'detailed' as const, cost_code: '32 12 16',
      proposal_text: `Clean the existing surface, apply tack coat and install a ${depth}" compacted overlay of hot-mix asphalt surface course. Roll to a smooth, uniform finish.`,
      what_to_expect: '<p>The lot is closed while we pave and for the rest of the day. Fresh asphalt can scuff under turning tires for the first few weeks.</p>',
      internal_scope: `<p>${depth}" compacted HMA surface mix over tack. Mill or feather edges at drains and curbs as needed.</p>`,
      cost_lines: [
        { type: 'crew' as const, item: 'paving_crew', quantity_formula: 'ceil(quantity / 2500)' },
        { type: 'material' as const, item: 'hma', quantity_formula: hma(depth), waste_factor: 0.05 },
        { type: 'material' as const, item: 'tack', quantity_formula: 'quantity * 0.05' },
        { type: 'trucking' as const, item: 'tri_axle', quantity_formula: `${hma(depth)} * 1.05`, haul_material: 'asphalt' as const },
        { type: 'equipment' as const, item: 'paver', quantity_formula: 'ceil(quantity / 2500) * 8' },
        { type: 'equipment' as const, item: 'roller', quantity_formula: 'ceil(quantity / 2500) * 8' },
      ],
    })),
    {
      name: 'Mill and overlay, 2"', category: 'Paving', unit: 'SY', estimating_mode: 'detailed', cost_code: '32 01 16',
      proposal_text: 'Mill 2" of existing asphalt, haul millings for recycling, sweep, apply tack coat and install a 2" compacted overlay of hot-mix asphalt surface course.',
      what_to_expect: '<p>Milled areas are drivable but rough until paved, usually the next working day.</p>',
      internal_scope: '<p>Mill 2" full area, haul millings to recycler, tack and pave 2" HMA surface mix.</p>',
      cost_lines: [
        { type: 'crew', item: 'paving_crew', quantity_formula: 'ceil(quantity / 1800)' },
        { type: 'equipment', item: 'mill_skid', quantity_formula: 'quantity / 150' },
        { type: 'trucking', item: 'tri_axle', name: 'Haul millings', quantity_formula: hma(2), haul_material: 'millings' },
        { type: 'misc', item: 'millings_recycler', name: 'Millings dump fee', quantity_formula: hma(2), dump_material: 'millings' },
        { type: 'material', item: 'hma', quantity_formula: hma(2), waste_factor: 0.05 },
        { type: 'material', item: 'tack', quantity_formula: 'quantity * 0.05' },
        { type: 'trucking', item: 'tri_axle', name: 'Haul asphalt', quantity_formula: `${hma(2)} * 1.05`, haul_material: 'asphalt' },
        { type: 'equipment', item: 'paver', quantity_formula: 'ceil(quantity / 2500) * 8' },
        { type: 'equipment', item: 'roller', quantity_formula: 'ceil(quantity / 2500) * 8' },
      ],
    },
    {
      name: 'Full-depth asphalt patch', category: 'Paving', unit: 'SF', estimating_mode: 'detailed', cost_code: '32 01 16',
      proposal_text: 'Saw cut and excavate failed asphalt to 6", haul spoil, compact the subgrade, tack the edges and install 4" HMA base and 2" HMA surface in lifts.',
      what_to_expect: '<p>Patched areas are open to traffic the same day once the asphalt cools.</p>',
      internal_scope: '<p>6" excavation, 4" base mix + 2" surface mix, tack edges, roll each lift.</p>',
      cost_lines: [
        { type: 'crew', item: 'patch_crew', quantity_formula: 'ceil(quantity / 800)' },
        { type: 'equipment', item: 'mini_ex', quantity_formula: 'ceil(quantity / 800) * 8' },
        { type: 'trucking', item: 'tri_axle', name: 'Haul spoil', quantity_formula: 'quantity * 0.5 / 27 * 1.4', haul_material: 'spoil' },
        { type: 'misc', item: 'spoil_site', name: 'Spoil dump fee', quantity_formula: 'quantity * 0.5 / 27 * 1.4', dump_material: 'spoil' },
        { type: 'material', item: 'base_hma', quantity_formula: 'quantity / 9 * 4 * 0.0575', waste_factor: 0.08 },
        { type: 'material', item: 'hma', quantity_formula: 'quantity / 9 * 2 * 0.0575', waste_factor: 0.08 },
        { type: 'material', item: 'tack', quantity_formula: 'quantity / 9 * 0.05' },
        { type: 'equipment', item: 'roller', quantity_formula: 'ceil(quantity / 800) * 4' },
      ],
    },
    {
      name: 'Crack sealing', category: 'Sealcoating', unit: 'LF', estimating_mode: 'detailed', cost_code: '32 01 17',
      proposal_text: 'Blow out cracks 1/4" and wider with compressed air and fill with hot-pour rubberized crack sealant.',
      what_to_expect: '<p>Sealed cracks can be driven on within an hour.</p>',
      internal_scope: null,
      cost_lines: [
        { type: 'crew', item: 'sealcoat_crew', quantity_formula: 'ceil(quantity / 3000)' },
        { type: 'equipment', item: 'melter', quantity_formula: 'ceil(quantity / 3000) * 8' },
        { type: 'material', item: 'crack_sealant', quantity_formula: 'quantity * 0.6', waste_factor: 0.1 },
      ],
    },
    {
      name: 'Sealcoating, 2 coats', category: 'Sealcoating', unit: 'SY', estimating_mode: 'unit_costing', cost_code: '32 01 13',
      unit_cost: 1.05, unit_price: 1.98,
      proposal_text: 'Clean the pavement, prime oil spots and apply two coats of sand-loaded, coal-tar-free asphalt emulsion sealer (about $0.22 per square foot).',
      what_to_expect: '<p>Keep vehicles off for 24 hours and foot traffic off for 4. Temperatures must be above 50°F and rising.</p>',
    },
    {
      name: 'Line striping', category: 'Striping', unit: 'LF', estimating_mode: 'unit_costing', cost_code: '32 17 23',
      unit_cost: 0.12, unit_price: 0.25, proposal_text: 'Paint 4" lines with waterborne traffic paint to the existing or approved layout.',
    },
    {
      name: 'Parking stall striping', category: 'Striping', unit: 'EA', estimating_mode: 'unit_costing', cost_code: '32 17 23',
      unit_cost: 2.4, unit_price: 5, proposal_text: 'Restripe standard parking stalls (two 18\' lines per stall) in white or yellow traffic paint.',
    },
    {
      name: 'ADA stall with stencil', category: 'Striping', unit: 'EA', estimating_mode: 'unit_costing', cost_code: '32 17 23',
      unit_cost: 38, unit_price: 85, proposal_text: 'Paint an accessible stall with access aisle hatching and the International Symbol of Accessibility stencil in blue and white.',
    },
    {
      name: 'Mulch install', category: 'Landscaping', unit: 'CY', estimating_mode: 'detailed', cost_code: '32 91 13',
      proposal_text: 'Edge beds, remove weeds and install double-shredded hardwood mulch at a 2"–3" depth.',
      cost_lines: [
        { type: 'material', item: 'mulch', quantity_formula: 'quantity', waste_factor: 0.05 },
        { type: 'crew', item: 'landscape_crew', quantity_formula: 'quantity * 0.75' },
      ],
    },
    {
      name: 'Lawn mowing', category: 'Landscaping', unit: 'VISIT', estimating_mode: 'unit_costing', cost_code: '32 93 00',
      unit_cost: 38, unit_price: 65, proposal_text: 'Mow, string-trim and blow off hard surfaces, per visit.',
    },
    {
      name: 'Spring cleanup', category: 'Landscaping', unit: 'HR', estimating_mode: 'unit_costing', cost_code: '32 93 00',
      unit_cost: 48, unit_price: 75, proposal_text: 'Remove leaves and winter debris from lawns and beds, cut back perennials and haul away debris.',
    },
    {
      name: 'Sod install', category: 'Landscaping', unit: 'SF', estimating_mode: 'detailed', cost_code: '32 92 23',
      proposal_text: 'Grade and prepare the soil with 1" of screened topsoil and install Kentucky bluegrass sod, rolled and watered in.',
      cost_lines: [
        { type: 'material', item: 'sod', quantity_formula: 'quantity', waste_factor: 0.05 },
        { type: 'material', item: 'topsoil', quantity_formula: 'quantity / 324', waste_factor: 0.1 },
        { type: 'crew', item: 'landscape_crew', quantity_formula: 'quantity / 400' },
      ],
    },
    {
      name: 'Concrete flatwork', category: 'Concrete', unit: 'SF', estimating_mode: 'detailed', cost_code: '32 13 13',
      proposal_text: 'Remove and replace concrete sidewalk or pad at 4" thickness with broom finish (by our concrete partner).',
      cost_lines: [
        { type: 'subcontractor', item: 'concrete_sub', quantity_formula: 'quantity', pricing_method: 'markup', pricing_rate: 0.15 },
      ],
    },
    {
      name: 'Snow plowing, per push', category: 'Snow', unit: 'VISIT', estimating_mode: 'unit_costing', cost_code: null,
      unit_cost: 95, unit_price: 165, proposal_text: 'Plow drive lanes and parking areas at each 2" snowfall trigger, per push.',
    },
  ],
  price_lists: [
    {
      name: 'Standard 2026', description: 'List prices for unit-priced services and current material costs.', is_default: true,
      services: [
        { service: 'Sealcoating, 2 coats', unit_price: 1.98 },
        { service: 'Line striping', unit_price: 0.25 },
        { service: 'Parking stall striping', unit_price: 5 },
        { service: 'ADA stall with stencil', unit_price: 85 },
        { service: 'Lawn mowing', unit_price: 65 },
        { service: 'Spring cleanup', unit_price: 75 },
        { service: 'Snow plowing, per push', unit_price: 165 },
      ],
      items: [
        { item: 'hma', unit_cost: 78 },
        { item: 'sealer', unit_cost: 2.85 },
      ],
    },
  ],
  templates: [
    {
      name: 'Parking lot refresh', description: 'Crack seal, two coats of sealer and a full restripe.',
      areas: [{
        name: 'Main lot',
        services: [
          { service: 'Crack sealing', quantity: null },
          { service: 'Sealcoating, 2 coats', quantity: null },
          { service: 'Line striping', quantity: null },
          { service: 'Parking stall striping', quantity: null },
          { service: 'ADA stall with stencil', quantity: 2 },
        ],
      }],
    },
    {
      name: 'Mill and overlay', description: 'Mill and pave with patching, then restripe.',
      areas: [{
        name: 'Main lot',
        services: [
          { service: 'Full-depth asphalt patch', quantity: null },
          { service: 'Mill and overlay, 2"', quantity: null },
          { service: 'Line striping', quantity: null },
          { service: 'Parking stall striping', quantity: null },
        ],
      }],
    },
  ],
};
