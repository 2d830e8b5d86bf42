// The OpenAPI document describes every /v1 operation the way clients and the MCP server rely on:
// a stable snake_case verb_noun operationId, a summary, tags, the X-API-Key scheme and the error
// answers each can give with the one error body schema.
import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#platform/errors.ts';
import { operationIdOf } from '#platform/openapi.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
let doc: any;
let operations: { method: string; path: string; op: any }[];
beforeAll(async () => {
  t = await startApp();
  doc = (await t.anon.get('/v1/openapi.json')).body;
  operations = Object.entries<any>(doc.paths).flatMap(([p, ops]) =>
    Object.entries<any>(ops).map(([method, op]) => ({ method: method.toUpperCase(), path: p, op })),
  );
});
afterAll(() => t.close());

describe('the document', () => {
  it('validates as OpenAPI 3.1 in an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator is not a formality: an operation with a malformed parameter is refused.
    const broken = structuredClone(doc);
    broken.paths['/v1/jobs'].get.parameters.push({ name: 'x', in: 'nowhere' });
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('names the X-API-Key scheme and requires it by default', () => {
    expect(doc.components.securitySchemes).toEqual({ apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });
});

describe('operationId', () => {
  it('is verb_noun, snake_case and unique on every operation', () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(_[a-z0-9]+)+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays what integrators and MCP tools were given (operation-ids.txt lists them)', () => {
    // A new route adds a line; a rename is a breaking change for every MCP client and SDK.
    const listed = fs
      .readFileSync(path.join(import.meta.dirname, 'operation-ids.txt'), 'utf8')
      .trim()
      .split('\n');
    const now = operations.map((o) => `${o.op.operationId} ${o.method} ${o.path}`).sort();
    expect(now).toEqual(listed);
  });

  it('follows the naming rule', () => {
    expect(operationIdOf('GET', '/v1/jobs')).toBe('list_jobs');
    expect(operationIdOf('GET', '/v1/jobs/:id')).toBe('get_job');
    expect(operationIdOf('POST', '/v1/jobs')).toBe('create_job');
    expect(operationIdOf('POST', '/v1/jobs/:id/move')).toBe('move_job');
    expect(operationIdOf('GET', '/v1/webhooks/deliveries')).toBe('list_webhook_deliveries');
    expect(operationIdOf('POST', '/v1/activities')).toBe('create_activity');
    expect(operationIdOf('PATCH', '/v1/jobs/:id/custom-fields')).toBe('update_job_custom_fields');
    expect(operationIdOf('GET', '/v1/jobs/:job_id/details')).toBe('get_job_details');
    expect(operationIdOf('POST', '/v1/webhooks/replay')).toBe('replay_webhooks');
  });
});

describe('each operation', () => {
  it('has a summary, tags and, unless public, the key scheme', () => {
    for (const { method, path: p, op } of operations) {
      expect(op.summary, `${method} ${p}`).toBeTruthy();
      expect(op.tags?.length, `${method} ${p}`).toBeGreaterThan(0);
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (!isPublic && p !== '/v1/export-downloads/{token}')
        expect(op.responses['401'], `${method} ${p}`).toBeDefined();
    }
  });

  it('documents its error answers with the error schema (codes from the catalogue)', () => {
    for (const { method, path: p, op } of operations) {
      const errors = Object.entries<any>(op.responses).filter(([status]) => Number(status) >= 400);
      if (p !== '/v1/health') expect(errors.length, `${method} ${p}`).toBeGreaterThan(0);
      if (p.includes('{')) expect(op.responses['404'], `${method} ${p}`).toBeDefined();
      for (const [, response] of errors) {
        let schema = response.content['application/json'].schema;
        // The shared error schema is referred to, not repeated.
        if (schema.$ref) {
          expect(schema.$ref).toBe('#/components/schemas/Error');
          schema = doc.components.schemas.Error;
        }
        expect(schema.required).toContain('error');
        expect(schema.properties.code.enum).toEqual([...ERROR_CODES]);
      }
    }
  });

  it('describes the headers of the export answers', () => {
    const op = (method: string, p: string) => operations.find((o) => o.method === method && o.path === p)!.op;
    expect(Object.keys(op('GET', '/v1/exports/{file}').responses['200'].headers)).toEqual([
      'Content-Disposition',
      'X-Service-Export-Dataset',
      'X-Service-Export-Watermark',
      'Cache-Control',
    ]);
    expect(Object.keys(op('POST', '/v1/exports').responses['202'].headers)).toEqual(['Location']);
    expect(op('POST', '/v1/exports').responses['202'].content['application/json'].schema.properties.data).toBeDefined();
    expect(Object.keys(op('GET', '/v1/export-downloads/{token}').responses['200'].headers)).toEqual([
      'Content-Length',
      'Content-Disposition',
      'Cache-Control',
    ]);
  });

  it('answers errors through that schema without losing their fields', async () => {
    const w = await t.workspace();
    const res = await w.api.raw.post('/v1/jobs', { name: 'x', bogus: 1, other: 2 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Unknown fields: bogus, other',
      code: 'unknown_fields',
      fields: ['bogus', 'other'],
    });
    const missing = await t.anon.get('/v1/jobs');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBeTruthy();
  });
});
