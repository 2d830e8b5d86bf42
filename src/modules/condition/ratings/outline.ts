// The rated image as a JPEG with the rated polygon outlined (document 3: return_image), for a
// person checking what was rated.
import sharp from 'sharp';
import type { Pixels } from './image.ts';

export async function outlinedJpeg(pixels: Pixels, outline: [number, number][] | null): Promise<Buffer> {
  let image = sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } });
  if (outline && outline.length >= 3) {
    const points = outline.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
    const stroke = Math.max(2, Math.round(Math.max(pixels.width, pixels.height) / 300));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels.width}" height="${pixels.height}"><polygon points="${points}" fill="none" stroke="#facc15" stroke-width="${stroke}" stroke-linejoin="round"/></svg>`;
    image = image.composite([{ input: Buffer.from(svg), top: 0, left: 0 }]);
  }
  return image.jpeg({ quality: 85 }).toBuffer();
}
