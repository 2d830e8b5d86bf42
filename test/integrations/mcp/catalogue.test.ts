// The MCP catalogue is the OpenAPI document: every /v1 operation is a tool (but health, the docs,
// the document itself, /v1/mcp, binary downloads and multipart uploads), named by its operationId, with an input
// schema made of its path, query and body schemas and annotations that follow its method.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { mcpClient } from '#test/helpers/mcp.ts';
import { FIRST_CLASS } from '#integrations/mcp/first-class.ts';
import { indexOf, searchOperations } from '#integrations/mcp/search.ts';
import { GROUPED_TAGS, operationsOf } from '#integrations/mcp/operations.ts';

/** The /v1 operations that are not tools, and why. A new one must be added here on purpose. */
const NOT_TOOLS: Record<string, string> = {
  get_health: 'public, no key',
  download_export: 'binary download (JSON lines or gzip)',
  download_export_file: 'binary download (zip), reached by a link',
  download_object: 'binary download (a stored file or photo), reached by a signed link',
  download_file: 'a redirect to a binary download (get_file gives the signed link)',
  create_job_file: 'multipart upload of a file part',
  create_client_account_file: 'multipart upload of a file part',
  create_library_file: 'multipart upload of a file part',
  get_proposal_pdf: 'binary download (a PDF); get_proposal gives its content',
  get_invoice_pdf: 'binary download (a PDF); get_invoice gives its content',
  download_report_csv: 'binary download (CSV or a ZIP of CSVs); run_report gives the same tables',
  get_landscape_takeoff_sheet_image:
    'binary download (a PNG of a plan sheet); get_landscape_takeoff and list_landscape_takeoff_items give what was read on it',
};

let t: TestApp;
let doc: any;
let client: Client;
let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
const operations: { id: string; method: string; path: string; op: any }[] = [];
beforeAll(async () => {
  t = await startApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const w = await t.workspace();
  doc = (await t.anon.get('/v1/openapi.json')).body;
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item))
      operations.push({ id: op.operationId, method: method.toUpperCase(), path, op });
  client = await mcpClient(base, w.key, { query: { toolsets: 'all' } });
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const toolNamed = (name: string) => tools.find((tool) => tool.name === name);

describe('the catalogue against /v1/openapi.json', () => {
  it('groups the operations area into one toolset: every grouped tag is a tag of the document', () => {
    const tags = new Set(operations.flatMap((o) => o.op.tags ?? []));
    for (const tag of Object.keys(GROUPED_TAGS)) expect(tags.has(tag), tag).toBe(true);
    const ops = operationsOf(doc)
      .filter((o) => o.toolset === 'operations')
      .map((o) => o.name);
    expect(ops).toEqual(
      expect.arrayContaining(['list_work_orders', 'create_hold', 'list_schedule_requests', 'list_rebids']),
    );
    expect(ops.length).toBeGreaterThan(40);
  });

  it('has a tool for every /v1 operation but the listed exceptions, and nothing else', () => {
    const missing = operations.filter((o) => !toolNamed(o.id) && !(o.id in NOT_TOOLS));
    expect(missing.map((o) => `${o.method} ${o.path} (${o.id})`)).toEqual([]);
    for (const name of Object.keys(NOT_TOOLS)) expect(toolNamed(name), name).toBeUndefined();
    const operationIds = new Set(operations.map((o) => o.id));
    const extra = tools.filter((tool) => !operationIds.has(tool.name)).map((tool) => tool.name);
    expect(extra.sort()).toEqual(['call_operation', 'search_operations']);
    // /v1/mcp, the docs and the document are not operations of the document.
    expect(Object.keys(doc.paths).filter((p) => /mcp|docs|openapi/.test(p))).toEqual([]);
  });

  it("builds each tool's input schema from the operation's path, query and body schemas", () => {
    for (const { id, op } of operations.filter((o) => toolNamed(o.id))) {
      const schema = toolNamed(id)!.inputSchema as any;
      const parameters = (op.parameters ?? []).filter((p: any) => p.name !== 'firm_id');
      for (const p of parameters) {
        expect(schema.properties[p.name], `${id} ${p.name}`).toMatchObject(p.schema);
        if (p.in === 'path') expect(schema.required, `${id} ${p.name}`).toContain(p.name);
      }
      const body = op.requestBody?.content['application/json'].schema;
      for (const [name, field] of Object.entries<any>(body?.properties ?? {}))
        expect(schema.properties[name], `${id} ${name}`).toEqual(field);
      for (const name of body?.required ?? []) expect(schema.required, `${id} ${name}`).toContain(name);
      expect(Object.keys(schema.properties).length).toBe(
        parameters.length + Object.keys(body?.properties ?? {}).length,
      );
      // Path, query and body names never collide, so arguments can sit side by side.
      const bodyNames = Object.keys(body?.properties ?? {});
      expect(
        parameters.filter((p: any) => bodyNames.includes(p.name)).map((p: any) => p.name),
        id,
      ).toEqual([]);
    }
  });

  it('annotates by method: GET reads, DELETE and delete-permission routes destroy, POST repeats', () => {
    for (const { id, method, op } of operations.filter((o) => toolNamed(o.id))) {
      const hints = toolNamed(id)!.annotations!;
      expect(hints.readOnlyHint, id).toBe(method === 'GET');
      expect(hints.destructiveHint, id).toBe(method === 'DELETE' || op['x-permissions'].includes('delete_records'));
      expect(hints.idempotentHint, id).toBe(method !== 'POST');
      expect(hints.openWorldHint, id).toBe(false);
      expect(toolNamed(id)!.title).toBe(op.summary);
    }
    expect(toolNamed('merge_job')!.annotations!.destructiveHint).toBe(true);
    expect(toolNamed('update_job')!.annotations!.destructiveHint).toBe(false);
  });

  it('documents the permissions each operation needs', () => {
    const needs = (id: string) => operations.find((o) => o.id === id)!.op['x-permissions'];
    expect(needs('list_jobs')).toEqual(['read_jobs']);
    expect(needs('create_job')).toEqual(['write_jobs']);
    expect(needs('delete_job')).toEqual(['write_jobs', 'delete_records']);
    expect(needs('get_health')).toBeUndefined();
  });

  it('offers 25 to 45 first-class tools, each a real operation with a one-line description', () => {
    // Few enough that an assistant reads them all (operations and reports brought it past 40).
    const first = Object.entries(FIRST_CLASS);
    expect(first.length).toBeGreaterThanOrEqual(25);
    expect(first.length).toBeLessThanOrEqual(45);
    for (const [name, description] of first) {
      expect(toolNamed(name), name).toBeDefined();
      expect(toolNamed(name)!.description).toBe(description);
      expect(description).not.toContain('\n');
      expect(description.length, name).toBeLessThanOrEqual(140);
    }
    // Operations that are not first-class describe themselves with their summary.
    expect(toolNamed('list_webhook_deliveries')!.description).toContain('delivery log');
  });
});

describe('search_operations ranking', () => {
  const index = () => indexOf(operationsOf(doc));
  const top = (query: string, n = 3) => searchOperations(index(), query, n).map((op) => op.name);

  it("reads the spec's words as the routes' (customer, site, follow-up)", () => {
    expect(top('list customers')).toContain('list_client_accounts');
    expect(top('create site')).toContain('create_location');
    // The five follow-up sequence operations share every word of the query and rank first.
    // Re-bid follow-ups and re-bid jobs (operations) rank beside it.
    expect(top('follow-up for a job', 10)).toContain('create_task');
    expect(top('follow-up sequence', 3)).toContain('get_job_follow_up_sequence');
    expect(top('redeliver webhook')[0]).toBe('redeliver_webhook_delivery');
  });

  it('finds nothing for words no operation has, and never more than the limit', () => {
    expect(top('zzzz')).toEqual([]);
    expect(searchOperations(index(), 'job', 4)).toHaveLength(4);
  });
});
