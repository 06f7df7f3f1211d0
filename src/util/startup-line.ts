import { join } from "node:path";

/** Where the data lives, for the start-up line: the PGlite folder, or PostgreSQL's host and database (no password). */
export function describeDatabase(c: { databaseUrl?: string | undefined; dataDir: string }): string {
  if (!c.databaseUrl) return `PGlite (embedded) in ${join(c.dataDir, "pglite")}`;
  try {
    const u = new URL(c.databaseUrl);
    return `PostgreSQL ${u.hostname}${u.port ? `:${u.port}` : ""}/${decodeURIComponent(u.pathname.slice(1)) || "postgres"}${u.username ? ` as ${decodeURIComponent(u.username)}` : ""}`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

/** The one line that tells a new user what is running where. */
export function startupLine(o: { database: string; rpc: string | null; http: string }): string {
  return `HTTP server listening at ${o.http} (API docs ${o.http}/api/docs); database: ${o.database}; chain RPC: ${o.rpc ?? "none, serving what was indexed"}`;
}
