// The defects a pin can name (defect_type_id). The spec names the field and shows no list, so the
// list is fixed and small (docs/api-decisions.md, Site assessments and pins): the distresses of
// the trades the starter assessment services cover. Ids never change meaning; new kinds append.
export interface DefectType {
  id: number;
  name: string;
  group: 'Asphalt' | 'Concrete' | 'Site' | 'Landscape';
}

export const DEFECT_TYPES: readonly DefectType[] = [
  { id: 1, name: 'Alligator cracking', group: 'Asphalt' },
  { id: 2, name: 'Block cracking', group: 'Asphalt' },
  { id: 3, name: 'Linear cracking', group: 'Asphalt' },
  { id: 4, name: 'Pothole', group: 'Asphalt' },
  { id: 5, name: 'Raveling', group: 'Asphalt' },
  { id: 6, name: 'Rutting', group: 'Asphalt' },
  { id: 7, name: 'Oil or fuel stain', group: 'Asphalt' },
  { id: 8, name: 'Spalling', group: 'Concrete' },
  { id: 9, name: 'Heaving or trip hazard', group: 'Concrete' },
  { id: 10, name: 'Faded striping', group: 'Site' },
  { id: 11, name: 'Standing water', group: 'Site' },
  { id: 12, name: 'Bare or dead turf', group: 'Landscape' },
  { id: 13, name: 'Overgrowth', group: 'Landscape' },
  { id: 14, name: 'Dead or damaged tree', group: 'Landscape' },
  { id: 15, name: 'Erosion', group: 'Landscape' },
];

const byId = new Map(DEFECT_TYPES.map((d) => [d.id, d]));

export function findDefectType(id: number): DefectType | undefined {
  return byId.get(id);
}
