// Photos for the condition-rating tests, drawn by the detector's synthetic generator (whose truth
// is known): encoded as the API receives them.
import sharp from 'sharp';
import { generateScene, type SceneCategory } from '#engines/distress/synthetic.ts';

export async function scenePhoto(category: SceneCategory, seed = 3, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const s = generateScene(category, seed);
  const image = sharp(Buffer.from(s.pixels.data), {
    raw: { width: s.pixels.width, height: s.pixels.height, channels: s.pixels.channels },
  });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 92 }).toBuffer();
}
