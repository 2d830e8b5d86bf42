// A body read whole from an outside answer, up to a size: what a service answers past its
// contract's size (a geocoder's few hundred bytes, a vision endpoint's findings, an image of at
// most 15 MB) is refused rather than buffered.

/** The bytes of `body`, or null (the stream destroyed) once it passes `maxBytes`. */
export async function cappedBytes(
  body: AsyncIterable<Buffer> & { destroy(): void },
  maxBytes: number,
): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
