// The catalogue a session is served from: every operation (read once from the app's OpenAPI
// document), what a session offers of it (its toolsets, read_only, the key's permissions), and the
// tool definitions the protocol lists.
import { authorize, type AuthContext } from '#platform/auth.ts';
import { ApiError, badRequest } from '#platform/errors.ts';
import { ALL_TOOLSETS, DEFAULT_TOOLSET, FIRST_CLASS } from './first-class.ts';
import { indexOf } from './search.ts';
import { type OpenApiDocument, type Operation, operationsOf } from './operations.ts';

export interface Catalogue {
  operations: readonly Operation[];
  byName: ReadonlyMap<string, Operation>;
  index: ReturnType<typeof indexOf>;
  /** The spec areas (toolsets) the operations belong to. */
  areas: readonly string[];
  /** Toolset names a session can ask for: default, all and each area. */
  toolsets: readonly string[];
}

export function catalogueOf(doc: OpenApiDocument): Catalogue {
  const operations = operationsOf(doc);
  const areas = [...new Set(operations.map((op) => op.toolset))].sort();
  return {
    operations,
    byName: new Map(operations.map((op) => [op.name, op])),
    index: indexOf(operations),
    areas,
    toolsets: [DEFAULT_TOOLSET, ALL_TOOLSETS, ...areas],
  };
}

/** What one MCP request may see and do. */
export interface Session {
  catalogue: Catalogue;
  auth: AuthContext;
  readOnly: boolean;
  /** The toolsets whose operations are listed as tools. */
  toolsets: ReadonlySet<string>;
}

/** `toolsets=jobs,estimates` (or default, all); an unknown name is a 400 naming the known ones. */
export function toolsetsOf(catalogue: Catalogue, asked: string | undefined): Set<string> {
  const names = (asked ?? DEFAULT_TOOLSET)
    .split(',')
    .map((name) => name.trim().toLowerCase().replace(/-/g, '_'))
    .filter(Boolean);
  const unknown = names.filter((name) => !catalogue.toolsets.includes(name));
  if (unknown.length) {
    throw badRequest(`Unknown toolsets: ${unknown.join(', ')}`, {
      code: 'invalid_choice',
      message: `toolsets takes a comma list of: ${catalogue.toolsets.join(', ')}`,
      allowed: catalogue.toolsets,
    });
  }
  return new Set(names.length ? names : [DEFAULT_TOOLSET]);
}

/** Whether the key may run `op` in this session: the route's own permission and role checks. */
export function allowed(session: Session, op: Operation): boolean {
  if (session.readOnly && !op.readOnly) return false;
  try {
    authorize(session.auth, op.permissions, op.crewApp);
    return true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

/** The operations listed as tools: the session's toolsets, less what the key may not run. */
export function listed(session: Session): Operation[] {
  const { toolsets, catalogue } = session;
  return catalogue.operations.filter(
    (op) =>
      (toolsets.has(ALL_TOOLSETS) ||
        toolsets.has(op.toolset) ||
        (toolsets.has(DEFAULT_TOOLSET) && op.name in FIRST_CLASS)) &&
      allowed(session, op),
  );
}

export function descriptionOf(op: Operation): string {
  return FIRST_CLASS[op.name] ?? [op.summary, op.description].filter(Boolean).join('. ');
}

const tools = new WeakMap<Operation, ReturnType<typeof makeTool>>();

/** The protocol's Tool for an operation (made once: the catalogue never changes). */
export function toolOf(op: Operation) {
  let tool = tools.get(op);
  if (!tool) {
    tool = makeTool(op);
    tools.set(op, tool);
  }
  return tool;
}

function makeTool(op: Operation) {
  return {
    name: op.name,
    title: op.summary,
    description: descriptionOf(op),
    inputSchema: op.inputSchema,
    annotations: {
      title: op.summary,
      readOnlyHint: op.readOnly,
      destructiveHint: op.destructive,
      idempotentHint: op.idempotent,
      // The tools act on this workspace's records only.
      openWorldHint: false,
    },
  };
}

/** What search_operations tells of an operation: enough to call it with call_operation. */
export function entryOf(op: Operation) {
  return {
    name: op.name,
    description: descriptionOf(op),
    toolset: op.toolset,
    method: op.method,
    path: op.path,
    permissions: op.permissions,
    read_only: op.readOnly,
    first_class: op.name in FIRST_CLASS,
    input_schema: op.inputSchema,
  };
}
