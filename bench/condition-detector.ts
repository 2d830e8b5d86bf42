// The built-in distress detector's accuracy on generated images (docs/condition-detector.md):
// precision, recall and density error per distress type over 13 categories of synthetic pavement.
//
//   node --import tsx bench/condition-detector.ts            16 images per category (208)
//   node --import tsx bench/condition-detector.ts --per=4    a quick look
//   … --size=448 --mpp=0.00625                               another scale
import { measureAccuracy } from '../src/engines/distress/accuracy.ts';
import { accuracyMarkdown } from '../src/engines/distress/accuracy-table.ts';

const perArg = process.argv.find((a) => a.startsWith('--per='));
const per = perArg ? Number(perArg.slice('--per='.length)) : 16;
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const size = Number(arg('size') ?? 320);
const mpp = Number(arg('mpp') ?? 0.005);
const started = performance.now();
const report = await measureAccuracy({ perCategory: per, size, metersPerPixel: mpp });
const seconds = (performance.now() - started) / 1000;
console.log(accuracyMarkdown(report));
console.log(
  `\n${report.images} images in ${seconds.toFixed(1)} s (${((seconds * 1000) / report.images).toFixed(0)} ms each, ${size} × ${size} px at ${mpp * 1000} mm per pixel).`,
);
