// The built-in distress detector's accuracy on generated images (docs/condition-detector.md):
// precision, recall and density error per distress type over 13 categories of synthetic pavement.
// bench/condition.ts includes the same table in its report through detectorAccuracy(), so there is
// one implementation; run alone, this file prints it.
//
//   node --import tsx bench/condition-detector.ts            16 images per category (208)
//   node --import tsx bench/condition-detector.ts --per=4    a quick look
import { fileURLToPath } from 'node:url';
import { measureAccuracy } from '../src/engines/distress/accuracy.ts';
import { accuracyMarkdown } from '../src/engines/distress/accuracy-table.ts';

/** The images a full run generates per category: 16 × 13 categories = 208. */
export const FULL_PER_CATEGORY = 16;

/** The accuracy tables for `perCategory` generated images of each category, with the time taken. */
export async function detectorAccuracy(
  perCategory: number,
): Promise<{ markdown: string; images: number; seconds: number }> {
  const started = performance.now();
  const report = await measureAccuracy({ perCategory });
  const seconds = (performance.now() - started) / 1000;
  return { markdown: accuracyMarkdown(report), images: report.images, seconds };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const perArg = process.argv.find((a) => a.startsWith('--per='));
  const per = perArg ? Number(perArg.slice('--per='.length)) : FULL_PER_CATEGORY;
  const { markdown, images, seconds } = await detectorAccuracy(per);
  console.log(markdown);
  console.log(
    `\n${images} images in ${seconds.toFixed(1)} s (${((seconds * 1000) / images).toFixed(0)} ms each, 320 × 320 px at 5 mm per pixel).`,
  );
}
