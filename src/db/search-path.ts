/**
 * The search path of a chain's handle: its schema first, then `public` (the shared tables: the verified store,
 * jobs, rate limits); null is the server's default (`"$user", public`), where the first chain's tables are.
 */
export function searchPathStatement(schema: string | null): string {
  if (schema === null) return "reset search_path";
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Not a schema name: ${schema}`);
  return `set search_path to ${schema}, public`;
}
