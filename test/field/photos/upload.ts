// Multipart uploads for the photo tests, and real images drawn with sharp.
import sharp from 'sharp';
import type { TestApp, Workspace } from '#test/helpers/harness.ts';

export type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer; type?: string };

export function multipartBody(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----groundwork${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('data' in p) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(t: TestApp, key: string, jobId: number, parts: Part[]) {
  const { payload, contentType } = multipartBody(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/jobs/${jobId}/photos`,
    headers: { 'x-api-key': key, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, body: res.json() as any };
}

/** Uploads `data` as the photo with the given text fields. */
export const uploadPhoto = (
  t: TestApp,
  w: Pick<Workspace, 'key'>,
  jobId: number,
  data: Buffer,
  fields: Record<string, string> = {},
) =>
  upload(t, w.key, jobId, [
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'photo', filename: 'site.jpg', data, type: 'image/jpeg' },
  ]);

/** A small solid image, wider than tall. */
export const image = (format: 'jpeg' | 'png' | 'webp' | 'gif', width = 60, height = 40) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .toFormat(format)
    .toBuffer();
