// PCI bands, exactly as document 3 lists them ("Condition rating result": Good 86-100,
// Satisfactory 71-85, Fair 56-70, Poor 41-55, Very poor 26-40, Serious 11-25, Failed 0-10), with the
// repair strategy, map color and treatment a contractor quotes for each (docs/condition.md, "Bands").
// Colors follow the conventional ASTM D6433 / PAVER rating-scale scheme (dark green through red to
// grey); the hex values are those of the `brandnewbox/pavement_condition_index` repository.
//
// A fractional score is banded by its value rounded to the nearest whole number, halves up: the
// bands are written in whole numbers and a reader compares a score as printed to them, so 85.5 is
// Good (86) and 85.4 Satisfactory (85).

export interface PciBand {
  label: string;
  /** Lowest and highest whole-number score of the band, inclusive. */
  min: number;
  max: number;
  strategy: string;
  color: string;
  recommended_treatment: string;
}

export const PCI_BANDS: readonly PciBand[] = [
  {
    label: 'Good',
    min: 86,
    max: 100,
    strategy: 'preventive maintenance',
    color: '#0f7d1d',
    recommended_treatment:
      'Keep it sealed: crack seal as cracks appear and sealcoat every 2 to 4 years to protect the surface.',
  },
  {
    label: 'Satisfactory',
    min: 71,
    max: 85,
    strategy: 'preventive maintenance',
    color: '#1ec734',
    recommended_treatment:
      'Crack seal, patch isolated spots and sealcoat now, while the surface is sound and the work is cheapest.',
  },
  {
    label: 'Fair',
    min: 56,
    max: 70,
    strategy: 'preventive maintenance or minor rehabilitation',
    color: '#fefb4a',
    recommended_treatment:
      'Repair failed areas with full-depth patches, seal the cracks, then sealcoat or apply a thin overlay.',
  },
  {
    label: 'Poor',
    min: 41,
    max: 55,
    strategy: 'major rehabilitation',
    color: '#fc2e1f',
    recommended_treatment: 'Mill and overlay, with full-depth patching of alligator-cracked and potholed areas first.',
  },
  {
    label: 'Very poor',
    min: 26,
    max: 40,
    strategy: 'major rehabilitation or reconstruction',
    color: '#a81a10',
    recommended_treatment:
      'Structural overlay after extensive base repair, or reconstruction where the base has failed.',
  },
  {
    label: 'Serious',
    min: 11,
    max: 25,
    strategy: 'reconstruction',
    color: '#690d07',
    recommended_treatment: 'Remove and replace: pulverize or excavate, repair the base and repave.',
  },
  {
    label: 'Failed',
    min: 0,
    max: 10,
    strategy: 'reconstruction',
    color: '#979797',
    recommended_treatment: 'Full reconstruction: remove the pavement, rebuild the base and repave.',
  },
];

/** The band of a PCI score (0–100); fractional scores by their nearest whole number, halves up. */
export function pciBand(score: number): PciBand {
  if (!(score >= 0 && score <= 100)) throw new RangeError(`PCI score out of range: ${score}`);
  const whole = Math.floor(score + 0.5);
  return PCI_BANDS.find((b) => whole >= b.min && whole <= b.max)!;
}
