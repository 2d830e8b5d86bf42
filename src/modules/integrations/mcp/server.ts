// One MCP server per request (the transport is stateless): the session's tools, the two catalogue
// tools that reach every other operation, and the guide as instructions, prompt and resource.
import type { FastifyInstance } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_VERSION } from '#src/version.ts';
import { allowed, entryOf, listed, type Session, toolOf } from './catalogue.ts';
import { GUIDE_URI, guideFor } from './guide.ts';
import { type Caller, errorResult, invoke, type ToolResult } from './invoke.ts';
import { nearestNames, searchOperations } from './search.ts';

// The SDK builds a new Ajv (with every format) for each Server unless given one: about a fifth of
// a tool call's CPU time. It only checks elicitation answers, which this server never asks for,
// so one instance serves every request.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

const SEARCH = 'search_operations';
const CALL = 'call_operation';

function metaTools(session: Session) {
  return [
    {
      name: SEARCH,
      title: 'Find an operation',
      description:
        'Find any API operation by words (for example "invoice for a job" or "webhook deliveries"): returns its name, description, permission and input schema, to run with call_operation.',
      inputSchema: {
        type: 'object' as const,
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 200, description: 'Words describing what you want to do' },
          toolset: { type: 'string', enum: [...session.catalogue.areas], description: 'Only this spec area' },
          limit: { type: 'integer', minimum: 1, maximum: 25, default: 10 },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { title: 'Find an operation', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CALL,
      title: 'Run an operation',
      description:
        'Run any API operation by its name (from search_operations) with its arguments: path, query and body fields side by side.',
      inputSchema: {
        type: 'object' as const,
        properties: {
          name: { type: 'string', description: 'The operation name, e.g. list_webhook_deliveries' },
          arguments: { type: 'object', description: 'The operation’s arguments, as its input_schema describes' },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: {
        title: 'Run an operation',
        readOnlyHint: session.readOnly,
        destructiveHint: !session.readOnly,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
  ];
}

const argsOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function search(session: Session, args: Record<string, unknown>): ToolResult {
  const query = typeof args.query === 'string' ? args.query : '';
  if (!query.trim()) return errorResult(400, { error: 'query is required', code: 'invalid_request', field: 'query' });
  const limit = Math.min(25, Math.max(1, Number.isInteger(args.limit) ? Number(args.limit) : 10));
  const toolset = typeof args.toolset === 'string' ? args.toolset : undefined;
  const index = session.catalogue.index.filter(
    (entry) => allowed(session, entry.op) && (!toolset || entry.op.toolset === toolset),
  );
  const found = searchOperations(index, query, limit).map(entryOf);
  const lines = found.map((op) => `${op.name}: ${op.description}`);
  return {
    structuredContent: { data: found, query },
    content: [
      {
        type: 'text',
        text: found.length
          ? `${found.length} operation(s); run one with call_operation.\n${lines.join('\n')}\n${JSON.stringify(found)}`
          : `No operation matches "${query}". Try other words, or the spec's names (job, customer, site, estimate …).`,
      },
    ],
  };
}

async function run(
  app: FastifyInstance,
  session: Session,
  caller: Caller,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const op = session.catalogue.byName.get(name);
  if (!op) {
    // The nearest names this session may run, not the whole catalogue.
    const mayRun = session.catalogue.operations.filter((o) => allowed(session, o)).map((o) => o.name);
    const near = nearestNames(mayRun, name);
    return errorResult(404, {
      error: 'Unknown operation',
      message: near.length
        ? `No operation is named ${name}. Nearest: ${near.join(', ')}. search_operations finds others by words`
        : `No operation is named ${name}, nor one near it; search_operations finds one by words`,
      code: 'unknown_operation',
      name,
      did_you_mean: near,
    });
  }
  if (session.readOnly && !op.readOnly) {
    return errorResult(403, {
      error: 'Read-only session',
      message: `${name} changes data, and this MCP connection was opened with read_only=true`,
      code: 'read_only_session',
    });
  }
  // A key without the permission is not refused here: the route answers its own REST 403.
  return invoke(app, op, args, caller);
}

export function mcpServerFor(app: FastifyInstance, session: Session, caller: Caller): Server {
  const guide = guideFor(session.auth.firm.name);
  const server = new Server(
    { name: 'groundwork', title: 'Groundwork', version: SERVICE_VERSION },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, instructions: guide, jsonSchemaValidator },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...listed(session).map(toolOf), ...metaTools(session)],
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const args = argsOf(params.arguments);
    if (params.name === SEARCH) return search(session, args);
    if (params.name === CALL) {
      const name = typeof args.name === 'string' ? args.name : '';
      return run(app, session, caller, name, argsOf(args.arguments));
    }
    return run(app, session, caller, params.name, args);
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      { name: 'groundwork', title: 'Working in Groundwork', description: 'How ids, money and dates work here' },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async ({ params }) => {
    if (params.name !== 'groundwork') throw new McpError(ErrorCode.InvalidParams, `No prompt is named ${params.name}`);
    return {
      description: 'How ids, money and dates work here',
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: guide } }],
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: GUIDE_URI, name: 'guide', title: 'Working in Groundwork', mimeType: 'text/plain' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
    if (params.uri !== GUIDE_URI) throw new McpError(ErrorCode.InvalidParams, `No resource at ${params.uri}`);
    return { contents: [{ uri: GUIDE_URI, mimeType: 'text/plain', text: guide }] };
  });
  return server;
}
