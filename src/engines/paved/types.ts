// What the built-in paved-surface detector (and the pluggable segmentation endpoint that can
// replace it) takes and gives back (docs/measurement-detector.md; docs/measurement.md, "The paved-surface detector"). Findings are
// in the image's pixel coordinates ([x, y], x to the right, y down, fractional allowed); the
// measurement area turns them into [lat, lng] with the mosaic's frame.
import type { RawPixels } from '#engines/distress/types.ts';

export type { RawPixels };

/** [x, y] in the image's pixels. */
export type PixelPoint = [number, number];

export type PavedSurface = 'asphalt' | 'concrete';
export type PaintColour = 'white' | 'yellow';

export interface PavedOptions {
  /** Ground size of one pixel (the mosaic's meters_per_pixel). */
  metersPerPixel: number;
}

export interface FoundSurface {
  surface: PavedSurface;
  /** Outline first, then holes (buildings, islands, tree wells inside the paved area). Each ring open (first point not repeated). */
  rings: PixelPoint[][];
}

export interface FoundLine {
  colour: PaintColour;
  /** A painted line's centre line, 2 or more points. */
  points: PixelPoint[];
}

export interface FoundStall {
  /** The stall's centre, between two stall lines. */
  point: PixelPoint;
}

export interface PavedFindings {
  surfaces: FoundSurface[];
  lines: FoundLine[];
  /** Parking stalls inferred from the spacing of parallel painted lines (read-only counts). */
  stalls: FoundStall[];
}
