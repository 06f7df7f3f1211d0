import { readFileSync } from "node:fs";
import { ConfigError } from "./config.js";

/** A chain the verifier can verify contracts on. */
export type ChainConfig = {
  id: string;
  name: string;
  rpcUrl: string;
  isTestnet: boolean;
  iconUrl: string | null;
  explorerUrl: string | null;
  /** The chain this process indexes (creation data comes from our own index). */
  indexed: boolean;
  /** `"index": true`: this deployment indexes and serves the chain too (many chains, one deployment). */
  index?: boolean;
  /** The chain's type, as CHAIN_TYPE says for RPC_URL's chain (an indexed entry's; default `auto`). */
  chainType?: ChainType;
};

export type ChainType = "auto" | "default" | "optimism";
const CHAIN_TYPES: readonly ChainType[] = ["auto", "default", "optimism"];

const isHttpUrl = (s: unknown): s is string => {
  if (typeof s !== "string") return false;
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
};

/**
 * Parses the CHAINS_CONFIG JSON (an array of `{id, name, rpcUrl, isTestnet?, iconUrl?, explorerUrl?, index?,
 * chainType?}`) with errors
 * that name the file, the entry and the field. Pure apart from reading the file.
 */
export function parseChainsConfig(text: string, source: string): ChainConfig[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`CHAINS_CONFIG (${source}): not valid JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(data))
    throw new ConfigError(
      `CHAINS_CONFIG (${source}): expected a JSON array of {id, name, rpcUrl, ...} objects.`,
    );
  const seen = new Set<string>();
  return data.map((entry, i) => {
    const where = `CHAINS_CONFIG (${source}) entry ${i}`;
    if (!entry || typeof entry !== "object" || Array.isArray(entry))
      throw new ConfigError(`${where}: expected an object.`);
    const e = entry as Record<string, unknown>;
    const id = typeof e.id === "number" ? String(e.id) : e.id;
    if (typeof id !== "string" || !/^[1-9]\d{0,18}$/.test(id))
      throw new ConfigError(
        `${where}: "id" must be a positive chain id (number or numeric string), got ${JSON.stringify(e.id)}.`,
      );
    if (seen.has(id)) throw new ConfigError(`${where}: chain id ${id} appears twice.`);
    seen.add(id);
    if (typeof e.name !== "string" || !e.name.trim())
      throw new ConfigError(`${where}: "name" must be a non-empty string.`);
    if (!isHttpUrl(e.rpcUrl))
      throw new ConfigError(`${where}: "rpcUrl" must be an http(s) URL, got ${JSON.stringify(e.rpcUrl)}.`);
    if (e.isTestnet !== undefined && typeof e.isTestnet !== "boolean")
      throw new ConfigError(`${where}: "isTestnet" must be true or false.`);
    if (e.index !== undefined && typeof e.index !== "boolean")
      throw new ConfigError(`${where}: "index" must be true or false.`);
    if (e.chainType !== undefined && !CHAIN_TYPES.includes(e.chainType as ChainType))
      throw new ConfigError(`${where}: "chainType" must be one of ${CHAIN_TYPES.join(", ")}.`);
    for (const k of ["iconUrl", "explorerUrl"] as const) {
      if (e[k] !== undefined && e[k] !== null && !isHttpUrl(e[k]))
        throw new ConfigError(`${where}: "${k}" must be an http(s) URL.`);
    }
    return {
      id,
      name: e.name,
      rpcUrl: e.rpcUrl,
      isTestnet: e.isTestnet === true,
      iconUrl: (e.iconUrl as string | undefined) ?? null,
      explorerUrl: (e.explorerUrl as string | undefined) ?? null,
      indexed: false,
      index: e.index === true,
      chainType: (e.chainType as ChainType | undefined) ?? "auto",
    };
  });
}

export function loadChainsConfig(path: string | undefined): ChainConfig[] {
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError(`CHAINS_CONFIG: cannot read ${path}: ${(e as Error).message}`);
  }
  return parseChainsConfig(text, path);
}

/**
 * The verifier's chains in configuration order, with the indexed chain always present: the configured entry with
 * its id is marked as indexed, or it is added first.
 */
export function withIndexedChain(
  configured: ChainConfig[],
  indexed: { id: string; name: string; rpcUrl: string } | null,
): ChainConfig[] {
  if (!indexed) return configured;
  const found = configured.find((c) => c.id === indexed.id);
  if (found) return configured.map((c) => (c === found ? { ...c, indexed: true } : c));
  return [
    {
      id: indexed.id,
      name: indexed.name,
      rpcUrl: indexed.rpcUrl,
      isTestnet: true,
      iconUrl: null,
      explorerUrl: null,
      indexed: true,
      index: true,
      chainType: "auto",
    },
    ...configured,
  ];
}
