// The built-in distress detector's accuracy on generated images (docs/condition.md, "The built-in distress detector"):
// precision, recall and density error per distress type over 13 categories of synthetic pavement.
// bench/condition.ts includes the same table in its report through detectorAccuracy(), so there is
// one implementation; run alone, this file prints it.
//
//   node --import tsx bench/condition-detector.ts            16 images per category (208)
//   node --import tsx bench/condition-detector.ts --per=4    a quick look
//   … --size=448 --mpp=0.00625                               another scale
import { fileURLToPath } from 'node:url';
import { measureAccuracy } from '../src/engines/distress/accuracy.ts';
import { accuracyMarkdown } from '../src/engines/distress/accuracy-table.ts';

/** The images a full run generates per category: 16 × 13 categories = 208. */
export const FULL_PER_CATEGORY = 16;

/** The accuracy tables for `perCategory` generated images of each category, with the time taken. */
export async function detectorAccuracy(
  perCategory: number,
  scale: { size?: number; metersPerPixel?: number } = {},
): Promise<{ markdown: string; images: number; seconds: number }> {
  const started = performance.now();
  const report = await measureAccuracy({ perCategory, ...scale });
  const seconds = (performance.now() - started) / 1000;
  return { markdown: accuracyMarkdown(report), images: report.images, seconds };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const per = Number(arg('per') ?? FULL_PER_CATEGORY);
  const size = Number(arg('size') ?? 320);
  const mpp = Number(arg('mpp') ?? 0.005);
  const { markdown, images, seconds } = await detectorAccuracy(per, { size, metersPerPixel: mpp });
  console.log(markdown);
  console.log(
    `\n${images} images in ${seconds.toFixed(1)} s (${((seconds * 1000) / images).toFixed(0)} ms each, ${size} × ${size} px at ${mpp * 1000} mm per pixel).`,
  );
}
