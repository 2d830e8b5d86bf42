// /v1/mcp: the Model Context Protocol server over the same data (document 1, What the service
// does), on the Streamable HTTP transport, stateless: each POST carries its JSON-RPC messages and
// gets its answers back as JSON; there is no session stream, so GET and DELETE answer 405. The
// key (X-API-Key, or Authorization: Bearer as MCP clients send it) passes the same authentication,
// billing, plan and firm_id checks as any /v1 call before the protocol sees the request.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { keyOf } from '#platform/auth.ts';
import type { ApiApp } from '#platform/routes.ts';
import { type Catalogue, catalogueOf, toolsetsOf } from './catalogue.ts';
import type { OpenApiDocument } from './operations.ts';
import { mcpServerFor } from './server.ts';

const McpQuery = Type.Object({
  toolsets: Type.Optional(
    Type.String({ maxLength: 500, description: 'Comma list of toolsets: default (first-class tools), all, or areas' }),
  ),
  read_only: Type.Optional(Type.Boolean({ description: 'true hides every tool that changes data' })),
});

/** The headers the transport reads, as a web Request (the body is already parsed). */
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/**
 * The transport reads only these headers and the method; its URL is a constant, because a Host
 * header a client or proxy sent is no valid URL authority (the Request would throw on it).
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request('http://localhost/v1/mcp', { method: 'POST', headers });
}

function notAllowed() {
  return {
    error: 'Method not allowed',
    message: 'This MCP server is stateless: POST JSON-RPC messages to /v1/mcp; there is no session to GET or DELETE',
  };
}

export function mcpRoutes(app: ApiApp): void {
  // Read from the served OpenAPI document on first use, when every route is registered.
  let catalogue: Catalogue | undefined;

  app.post(
    '/v1/mcp',
    {
      // Each tool call is counted by the route it runs (as the REST call would be); the protocol
      // envelope itself is not, so a tool call costs one call, not two.
      config: { bearerKey: true, rateLimit: false },
      schema: { hide: true, querystring: McpQuery },
    },
    async (request, reply) => {
      catalogue ??= catalogueOf(app.swagger() as unknown as OpenApiDocument);
      const auth = request.auth;
      const session = {
        catalogue,
        auth,
        readOnly: request.query.read_only === true,
        toolsets: toolsetsOf(catalogue, request.query.toolsets),
      };
      const caller = {
        key: keyOf(request)!,
        // A partner key's workspace (auth has read and removed firm_id from the query).
        firmId: auth.partner ? String(auth.firm.id) : undefined,
        remoteAddress: request.ip,
        host: request.host,
      };
      const server = mcpServerFor(app, session, caller);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      // Not closed afterwards: with JSON answers the transport has released everything once it
      // answers, and this server never sends requests of its own, so nothing is pending. Closing
      // would only build a ConnectionClosed error per request (a tenth of a tool call's time).
      const response = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      return reply.send(await response.text());
    },
  );

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/v1/mcp',
      config: { public: true, rateLimit: false },
      schema: { hide: true },
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed()),
    });
  }
}
