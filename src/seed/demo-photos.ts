// The demo workspace's site photos: drawn here (asphalt, stall lines, a crack network) rather than
// shipped as files, stored through the same upload path a crew's phone uses, so `npm start` shows
// photos with thumbnails and signed links on the embedded storage.
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { ServiceContext } from '#platform/context.ts';
import { addPinPhotos, preflightPinPhotos, recordPhotoUpload, storeUpload } from '#field/index.ts';
import { sniff } from '#platform/imagery/sniff.ts';

/** A parking-lot photo, 960×640: stall lines, and with `cracked` an alligator-cracked patch. */
function lotSvg(cracked: boolean): string {
  const stalls = Array.from({ length: 7 }, (_, i) => {
    const x = 120 + i * 120;
    return `<line x1="${x}" y1="40" x2="${x - 60}" y2="330" stroke="#f1f5f9" stroke-width="9" opacity="0.85"/>`;
  }).join('');
  const cracks = cracked
    ? [
        'M420 420 L470 455 L455 500 L510 530 L560 515 L600 560',
        'M470 455 L520 440 L560 470 L610 455',
        'M455 500 L420 540 L450 585',
        'M510 530 L520 590 L575 610',
        'M560 470 L600 505 L560 515',
      ]
        .map((d) => `<path d="${d}" stroke="#111827" stroke-width="5" fill="none" stroke-linejoin="round"/>`)
        .join('')
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="640">
    <rect width="960" height="640" fill="#4b5563"/>
    <rect y="360" width="960" height="280" fill="#374151"/>
    ${stalls}${cracks}
  </svg>`;
}

const PHOTOS = [
  {
    cracked: true,
    title: 'East entrance, base failure',
    stage: 'before' as const,
    caption: 'Alligator cracking, about 18 × 12 ft',
  },
  {
    cracked: false,
    title: 'North row stalls',
    stage: 'general' as const,
    caption: 'Stall lines faded; restripe with the seal',
  },
];

/** Adds the demo photos to a job, the first tagged with `tagId`. */
export async function demoPhotos(ctx: ServiceContext, jobId: number, tagId: number): Promise<void> {
  for (const [i, p] of PHOTOS.entries()) {
    const data = await sharp(Buffer.from(lotSvg(p.cracked)))
      .jpeg({ quality: 82 })
      .toBuffer();
    const stored = await storeUpload(ctx, Readable.from([data]), sniff(data)!);
    await recordPhotoUpload(
      ctx,
      jobId,
      stored,
      {
        title: p.title,
        caption: p.caption,
        stage: p.stage,
        latitude: 39.7817 + i * 0.0002,
        longitude: -89.6501,
        compass_heading: 45,
        tag_ids: i === 0 ? [tagId] : [],
      },
      // Links are made per read from the caller's origin; the answer here is not shown to anyone.
      'http://localhost',
    );
  }
}

/** A close-up of the cracked patch on a pin of the demo walk (so its report link shows a photo). */
export async function demoPinPhoto(ctx: ServiceContext, pinId: number): Promise<void> {
  const pin = await preflightPinPhotos(ctx, pinId);
  const data = await sharp(Buffer.from(lotSvg(true)))
    .extract({ left: 320, top: 360, width: 400, height: 280 })
    .jpeg({ quality: 82 })
    .toBuffer();
  const stored = await storeUpload(ctx, Readable.from([data]), sniff(data)!);
  await addPinPhotos(
    ctx,
    pin,
    [stored],
    { title: 'East entrance close-up', caption: 'Base failed under the alligator cracking', stage: 'before' },
    'http://localhost',
  );
}
