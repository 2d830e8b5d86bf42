// One call to the API over real HTTP, for the benches that time the app as a client sees it.
/** Anything but the expected status stops the run (its times would mean nothing). */
export async function call(
  api: string,
  key: string,
  method: 'GET' | 'POST',
  url: string,
  status: number,
  body?: object,
) {
  const res = await fetch(`${api}${url}`, {
    method,
    headers: body ? { 'x-api-key': key, 'content-type': 'application/json' } : { 'x-api-key': key },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${method} ${url}: HTTP ${res.status} ${text.slice(0, 400)}`);
  return JSON.parse(text) as Record<string, unknown> & { data: Record<string, unknown> };
}
