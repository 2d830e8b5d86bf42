// The pages' icon, answered at /favicon.ico (a browser asks for it on every page's origin): the
// header's navy square with a white road line, drawn once as SVG, rasterised by sharp to a 32 px
// PNG and wrapped in an ICO container (ICONDIR + one ICONDIRENTRY pointing at the PNG, which every
// browser since Windows Vista's format accepts).
import sharp from 'sharp';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#243b53"/>
<path d="M13 4h6l3 24H10z" fill="#52606d"/>
<path d="M16 6v4M16 14v4M16 22v4" stroke="#fff" stroke-width="2"/>
</svg>`;

let ico: Promise<Buffer> | null = null;

async function build(): Promise<Buffer> {
  const png = await sharp(Buffer.from(SVG)).png().toBuffer();
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type 1: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(32, 6); // width
  header.writeUInt8(32, 7); // height
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9); // reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // image size
  header.writeUInt32LE(header.length, 18); // image offset
  return Buffer.concat([header, png]);
}

/** The ICO bytes, made on first use and kept for the process. */
export function faviconIco(): Promise<Buffer> {
  ico ??= build();
  return ico;
}
