// A short-lived memo of resolved keys: a key's workspace, user and permissions change rarely,
// and resolving them costs three queries on every call. Every admin change in this process
// clears it at once; other processes (several servers on PostgreSQL, or the CLI beside a running
// server) see a revocation or plan change within the TTL (GROUNDWORK_AUTH_CACHE_MS, default 1 s).

const MAX_ENTRIES = 10_000;
const entries = new Map<string, { value: unknown; expires: number }>();

export function cachedAuth<T>(key: string): T | undefined {
  const hit = entries.get(key);
  if (!hit) return undefined;
  if (hit.expires <= Date.now()) {
    entries.delete(key);
    return undefined;
  }
  return hit.value as T;
}

export function rememberAuth(key: string, value: unknown, ttlMs: number): void {
  if (ttlMs <= 0) return;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, { value, expires: Date.now() + ttlMs });
}

/** Called after every change to workspaces, users or keys. */
export function invalidateAuthCache(): void {
  entries.clear();
}
