// The API's version (the /v1 root) and the server's own, read by the app, its OpenAPI document and
// the MCP server's initialize answer.
export const API_VERSION = 'v1';
export const SERVICE_VERSION = '0.1.0';
