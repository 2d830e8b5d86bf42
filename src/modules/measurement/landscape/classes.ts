// The landscape classes (document 3: GET /v1/landscape/classes lists area classes such as lawn and
// mulch, and object classes such as deciduous and shrub with `tree` true or false). `detected`
// says which ones a detect run can find: the built-in detector's (engines/landscape) unless an
// operator's segmentation endpoint is set, which may answer any class here. Colours are the
// editor's, so a drawing of the takeoff matches the web app's.
import { landscapeClassesDetected } from '#engines/landscape/index.ts';

export interface AreaClass {
  id: string;
  name: string;
  color: string;
}
export interface ObjectClass extends AreaClass {
  tree: boolean;
}

export const AREA_CLASSES: readonly AreaClass[] = [
  { id: 'lawn', name: 'Lawn', color: '#5cb85c' },
  { id: 'mulch', name: 'Mulch bed', color: '#8b5a2b' },
  { id: 'bed', name: 'Planting bed', color: '#b5651d' },
  { id: 'rock', name: 'Rock bed', color: '#9e9e9e' },
  { id: 'natural', name: 'Natural area', color: '#7a8b3c' },
  { id: 'hardscape', name: 'Hardscape', color: '#c2b280' },
  { id: 'water', name: 'Water', color: '#3d85c6' },
  // Road and parking are drawn, never detected here: detected areas are kept off them.
  { id: 'road', name: 'Road', color: '#555555' },
  { id: 'parking', name: 'Parking', color: '#777777' },
];

export const OBJECT_CLASSES: readonly ObjectClass[] = [
  { id: 'deciduous', name: 'Deciduous tree', color: '#2e7d32', tree: true },
  { id: 'evergreen', name: 'Evergreen tree', color: '#1b5e20', tree: true },
  { id: 'palm', name: 'Palm', color: '#9ccc65', tree: true },
  { id: 'shrub', name: 'Shrub', color: '#66bb6a', tree: false },
];

/** Areas a new detected area never covers (document 3's detect rules). */
export const PAVED_CLASSES = new Set(['road', 'parking']);

const areaById = new Map(AREA_CLASSES.map((c) => [c.id, c]));
const objectById = new Map(OBJECT_CLASSES.map((c) => [c.id, c]));

export const areaClass = (id: string) => areaById.get(id);
export const objectClass = (id: string) => objectById.get(id);
export const labelOf = (id: string) => areaById.get(id)?.name ?? objectById.get(id)?.name ?? id;
export const isTree = (id: string) => objectById.get(id)?.tree === true;

/** The classes a detect run may find: the built-in detector's, or every class for an endpoint. */
export function detectableClasses(segmentationSet: boolean): { areas: Set<string>; objects: Set<string> } {
  if (segmentationSet)
    return {
      areas: new Set(AREA_CLASSES.filter((c) => !PAVED_CLASSES.has(c.id)).map((c) => c.id)),
      objects: new Set(OBJECT_CLASSES.map((c) => c.id)),
    };
  return { areas: new Set(landscapeClassesDetected.areas), objects: new Set(landscapeClassesDetected.objects) };
}

export function classesObject(segmentationSet: boolean) {
  const found = detectableClasses(segmentationSet);
  return {
    areas: AREA_CLASSES.map((c) => ({ ...c, unit: 'sf', detected: found.areas.has(c.id) })),
    objects: OBJECT_CLASSES.map((c) => ({ ...c, unit: 'ea', detected: found.objects.has(c.id) })),
  };
}
