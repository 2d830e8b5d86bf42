// Hostile and malformed input to /v1/mcp: never a 500, never a write the REST API would refuse,
// never another workspace's record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { mcpClient, rawMcp } from '#test/helpers/mcp.ts';
import { job } from '#test/helpers/records.ts';
import { connect, requestHead } from '#test/helpers/raw-http.ts';

let t: TestApp;
let base: string;
let w: Workspace;
let client: Client;
beforeAll(async () => {
  t = await startApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  w = await t.workspace();
  client = await mcpClient(base, w.key, { query: { toolsets: 'all' } });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };

describe('the envelope', () => {
  it('answers malformed JSON-RPC, a wrong Accept and a non-JSON body with 4xx', async () => {
    const notRpc = await rawMcp(base, { 'x-api-key': w.key }, { hello: 'world' });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body.error.code).toBe(-32700);

    const unknownMethod = await rawMcp(base, { 'x-api-key': w.key }, { jsonrpc: '2.0', id: 9, method: 'nope/nope' });
    expect(unknownMethod.status).toBe(200);
    expect(unknownMethod.body.error.code).toBe(-32601);

    const wrongAccept = await fetch(new URL('/v1/mcp', base), {
      method: 'POST',
      headers: { 'x-api-key': w.key, 'content-type': 'application/json', accept: 'text/html' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(wrongAccept.status).toBe(406);

    const text = await fetch(new URL('/v1/mcp', base), {
      method: 'POST',
      headers: { 'x-api-key': w.key, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: 'tools/list',
    });
    expect(text.status).toBeGreaterThanOrEqual(400);
    expect(text.status).toBeLessThan(500);
  });

  it('survives a Host header that is no valid URL authority', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/mcp',
      headers: {
        host: 'bad host:x',
        'x-api-key': w.key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.tools.length).toBeGreaterThan(20);
  });

  it('a notification alone is accepted with 202 and no body', async () => {
    const res = await rawMcp(base, { 'x-api-key': w.key }, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res.status).toBe(202);
    expect(res.body).toBeNull();
  });

  it('a batch of calls answers each', async () => {
    const res = await fetch(new URL('/v1/mcp', base), {
      method: 'POST',
      headers: {
        'x-api-key': w.key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_jobs', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_job', arguments: { id: 424242 } } },
      ]),
    });
    // Batches belong to older protocol versions; either way nothing breaks.
    expect(res.status).toBeLessThan(500);
  });
});

describe('tool arguments', () => {
  it('cannot reach another path or smuggle query parameters', async () => {
    const other = await t.workspace();
    const theirs = await job(other, { name: 'Not yours' });
    const slashed = await call('get_job', { id: `${theirs.id}/../${theirs.id}` });
    expect(slashed.isError).toBe(true);
    expect(slashed.structuredContent.status).toBeLessThan(500);
    const smuggled = await call('list_jobs', { q: 'x&status=won&firm_id=1' });
    expect(smuggled.isError).toBeUndefined();
    expect(smuggled.structuredContent.data).toEqual([]);
  });

  it('never lets an argument choose the workspace', async () => {
    const other = await t.workspace();
    const theirs = await job(other, { name: 'Other workspace' });
    const read = await call('get_job', { id: theirs.id, firm_id: other.firmId });
    expect(read.structuredContent.status).toBe(404);
    const made = await call('create_job', { name: 'Mine after all', firm_id: other.firmId });
    expect(made.isError).toBeUndefined();
    expect((await w.api.get(`/v1/jobs/${made.structuredContent.data.id}`)).status).toBe(200);
  });

  it('refuses __proto__ and wrong types as the REST API does, and writes nothing', async () => {
    // The envelope is parsed by the API's own JSON parser, which refuses a prototype key outright.
    await expect(
      client.callTool({ name: 'create_job', arguments: JSON.parse('{"name":"Polluted","__proto__":{"admin":true}}') }),
    ).rejects.toThrow(/Request body is not valid JSON/);
    for (const args of [
      { name: 42 },
      { name: ['a'] },
      { name: 'x'.repeat(20_000) },
      { name: 'ok', estimated_value: 'lots' },
    ]) {
      const result = await call('create_job', args);
      expect(result.isError, JSON.stringify(args).slice(0, 60)).toBe(true);
      expect(result.structuredContent.status).toBe(400);
    }
    expect((await w.api.get('/v1/jobs?q=Polluted')).body.data).toEqual([]);
  });

  it('takes non-object arguments to call_operation as none', async () => {
    const result = await call('call_operation', { name: 'list_jobs', arguments: 'all of them' });
    expect(result.isError).toBeUndefined();
    const empty = await call('search_operations', { query: '   ' });
    expect(empty).toMatchObject({ isError: true, structuredContent: { status: 400 } });
  });
});

describe('a body over the size limit', () => {
  // Many clients send the whole body before they read the answer. Closing the connection while
  // such a client is still sending resets it, and the reset can destroy the 413 before it is read.
  const headers = () => ({
    'x-api-key': w.key,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  });
  const body = Buffer.alloc(5 * 1024 * 1024, 'a');

  it('is a 413 the client reads after sending its whole body (Content-Length)', async () => {
    for (let i = 0; i < 3; i++) {
      const c = await connect(Number(new URL(base).port));
      await c.write(requestHead('POST', '/v1/mcp', { ...headers(), 'content-length': body.length }));
      await c.write(body);
      const answer = await c.answer;
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'Request too large' });
      c.socket.destroy();
    }
  });

  it('is a 413 the client reads after sending its whole body (chunked)', async () => {
    const c = await connect(Number(new URL(base).port));
    await c.write(requestHead('POST', '/v1/mcp', { ...headers(), 'transfer-encoding': 'chunked' }));
    const piece = 256 * 1024;
    for (let at = 0; at < body.length; at += piece) {
      await c.write(
        Buffer.concat([Buffer.from(`${piece.toString(16)}\r\n`), body.subarray(at, at + piece), Buffer.from('\r\n')]),
      );
    }
    await c.write('0\r\n\r\n');
    const answer = await c.answer;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'Request too large' });
    c.socket.destroy();
  });
});
