import { type DocumentNode, Kind, type NameNode } from "graphql";

const camel = (s: string) => s.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * Absinthe's naming adapter, which Blockscout's API runs with: a document may name fields and arguments in
 * snake_case (`fetched_coin_balance`, `token_contract_address_hash`) as well as in the camelCase of the schema. The
 * snake_case names are rewritten in place to the schema's, and a rewritten field keeps its written name as the
 * response key (an alias), as Absinthe answers under the name the client wrote. Introspection names stay as they are.
 */
export function normalizeNames(doc: DocumentNode): void {
  const rename = (n: NameNode): NameNode | null => {
    if (!n.value.includes("_") || n.value.startsWith("__")) return null;
    return { ...n, value: camel(n.value) };
  };
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    const n = node as { kind?: string; name?: NameNode; alias?: NameNode; arguments?: unknown };
    if (n.kind === Kind.FIELD && n.name) {
      const renamed = rename(n.name);
      if (renamed) {
        const m = n as { name: NameNode; alias?: NameNode };
        if (!m.alias) m.alias = n.name;
        m.name = renamed;
      }
    } else if (n.kind === Kind.ARGUMENT && n.name) {
      const renamed = rename(n.name);
      if (renamed) (n as { name: NameNode }).name = renamed;
    }
    for (const [k, v] of Object.entries(n)) if (k !== "loc" && typeof v === "object") walk(v);
  };
  walk(doc.definitions);
}
