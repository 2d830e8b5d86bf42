// MCP test clients: the official SDK Client over Streamable HTTP against a real listening server,
// and a raw JSON-RPC POST for what a client library would hide (status codes, headers).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

export interface McpOptions {
  /** The MCP URL's query: toolsets, read_only, firm_id. */
  query?: Record<string, string>;
  /** Send the key as Authorization: Bearer instead of X-API-Key. */
  bearer?: boolean;
}

export function mcpUrl(base: string, query: Record<string, string> = {}): URL {
  const url = new URL('/v1/mcp', base);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

/** A connected SDK client (initialize done) acting with `key`. */
export async function mcpClient(base: string, key: string, options: McpOptions = {}): Promise<Client> {
  const headers: Record<string, string> = options.bearer ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  const client = new Client({ name: 'groundwork-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(base, options.query), { requestInit: { headers } }));
  return client;
}

/** One JSON-RPC request POSTed as an MCP client would, answered with its status, headers and body. */
export async function rawMcp(
  base: string,
  headers: Record<string, string>,
  message: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  query: Record<string, string> = {},
) {
  const res = await fetch(mcpUrl(base, query), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      ...headers,
    },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
