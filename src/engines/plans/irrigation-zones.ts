// Valve callouts (docs/plan-reading.md, "Irrigation"): the zone tag by a valve, with its valve
// size and flow. Read on one line (`A-1 1" 12 GPM`) or stacked, as plans usually print them: the
// tag (`A-1`: controller letters, station number) with the size and the flow on the lines just
// under it.
import { centre } from './boxes.ts';
import type { SheetBox, SheetText } from './types.ts';

export interface ValveCallout {
  zone: string;
  valve_size: string | null;
  gpm: number | null;
  page: number;
  x: number;
  y: number;
  box: SheetBox;
}

const TAG = /^([A-Z]{1,2})-?(\d{1,3})$/i;
const SIZE = /^(\d+(?:-\d+\/\d+|\/\d+|\.\d+)?)\s*(?:"|IN\.?)$/i;
const GPM = /^(\d+(?:\.\d+)?)\s*GPM$/i;
const ONE_LINE = /^([A-Z]{1,2})-?(\d{1,3})\s+(\d+(?:-\d+\/\d+|\/\d+|\.\d+)?\s*")\s+(\d+(?:\.\d+)?)\s*GPM$/i;

export function readValveCallouts(text: SheetText): ValveCallout[] {
  const out: ValveCallout[] = [];
  const lines = text.lines;
  for (const line of lines) {
    const c = centre(line.box);
    const one = ONE_LINE.exec(line.text.trim());
    if (one) {
      out.push({
        zone: `${one[1].toUpperCase()}-${Number(one[2])}`,
        valve_size: one[3].replace(/\s+/g, ''),
        gpm: Number(one[4]),
        page: text.page,
        x: c.x,
        y: c.y,
        box: line.box,
      });
      continue;
    }
    const tag = TAG.exec(line.text.trim());
    if (!tag) continue;
    // The lines stacked under the tag: starting below it within 3.5 text heights, overlapping it.
    const h = line.box.height;
    const under = lines.filter(
      (l) =>
        l !== line &&
        l.box.y > line.box.y + h / 2 &&
        l.box.y < line.box.y + 3.5 * h &&
        l.box.x < line.box.x + line.box.width + h &&
        l.box.x + l.box.width > line.box.x - h,
    );
    const size = under.map((l) => SIZE.exec(l.text.trim())).find(Boolean);
    const gpm = under.map((l) => GPM.exec(l.text.trim())).find(Boolean);
    // A bare tag (no size, no flow) is too often something else (a detail or a sheet reference).
    if (!size && !gpm) continue;
    out.push({
      zone: `${tag[1].toUpperCase()}-${Number(tag[2])}`,
      valve_size: size ? `${size[1]}"` : null,
      gpm: gpm ? Number(gpm[1]) : null,
      page: text.page,
      x: c.x,
      y: c.y,
      box: line.box,
    });
  }
  return out;
}
