// The demo workspace's condition ratings: the walked lot rated from a photo the crew took (drawn
// by the detector's synthetic generator: an asphalt lot with alligator cracking), first on the
// PASER scale and then by PCI, which sets the site's pci. Rated through the same service as the
// API, so the ratings are real: the numbers come from the detector and the engines.
import sharp from 'sharp';
import { rateCondition } from '#condition/index.ts';
import { generateScene } from '#engines/distress/synthetic.ts';
import type { ServiceContext } from '#platform/context.ts';

export async function demoConditionRatings(ctx: ServiceContext, siteId: number): Promise<void> {
  const scene = generateScene('alligator', 7, { size: 640 });
  const photo = await sharp(Buffer.from(scene.pixels.data), {
    raw: { width: scene.pixels.width, height: scene.pixels.height, channels: scene.pixels.channels },
  })
    .jpeg({ quality: 88 })
    .toBuffer();
  const fields = { image: photo.toString('base64'), location_id: siteId, notes: 'East entrance drive lane' };
  await rateCondition(ctx, 'paser', { fields, file: null, form: false });
  await rateCondition(ctx, 'pci', { fields, file: null, form: false });
}
