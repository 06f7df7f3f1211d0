import type { Rpc } from "../chain/rpc.js";
import { sleep } from "../chain/rpc.js";
import type { Config } from "../config/config.js";
import type { Db } from "../db/db.js";
import type { EventBus } from "../events/bus.js";
import type { TokenChange } from "../events/facts.js";
import type { Logger } from "../util/logger.js";
import { beaconClient, fetchDueBlobs } from "./blobs.js";
import { parseAllowedHosts } from "./metadata/index.js";
import { fetchDueMetadata, type MetadataFetchOptions } from "./metadata-worker.js";
import { refreshTokenProperties } from "./properties.js";

export type TokenWorkers = { wake(): void; stop(): Promise<void> };

export function metadataOptionsFromConfig(
  config: Pick<Config, "ipfsGatewayUrl" | "arweaveGatewayUrl" | "metadataAllowedHosts">,
): MetadataFetchOptions {
  return {
    gateways: { ipfs: config.ipfsGatewayUrl, arweave: config.arweaveGatewayUrl },
    allowedHosts: parseAllowedHosts(config.metadataAllowedHosts.join(",")),
  };
}

/**
 * Background loops of the token properties and metadata fetchers, and of the blob fetcher when BEACON_NODE_URL is
 * set. They poll the database (so a refetch requested
 * through the API is picked up within `pollMs`) and are woken early by every committed batch (`blocks` on
 * `wakeOn`). They never hold the block pipeline: their writes are single-row updates outside the indexer's
 * transactions.
 */
export function startTokenWorkers(o: {
  db: Db;
  rpc: Rpc;
  config: Pick<Config, "ipfsGatewayUrl" | "arweaveGatewayUrl" | "metadataAllowedHosts"> &
    Partial<Pick<Config, "beaconNodeUrl">>;
  logger: Logger;
  pollMs?: number;
  /** The bus whose `blocks` events wake the loops early. */
  wakeOn?: EventBus;
  /** Told what the workers stored that the socket reports (total supplies, fetched metadata). */
  onChange?: (change: TokenChange) => void;
}): TokenWorkers {
  const controller = new AbortController();
  const signal = controller.signal;
  // One controller per sleeping loop: wake() cuts every sleep short.
  const sleepers = new Set<AbortController>();
  const onChange = o.onChange;
  // A NOTIFY payload stays well under PostgreSQL's 8,000 bytes with 50 ids of up to 78 digits.
  const ID_CHUNK = 50;
  const options: MetadataFetchOptions = {
    ...metadataOptionsFromConfig(o.config),
    ...(onChange
      ? {
          onFetched: (token: string, ids: string[]) => {
            for (let i = 0; i < ids.length; i += ID_CHUNK)
              onChange({ kind: "token_metadata", token, ids: ids.slice(i, i + ID_CHUNK) });
          },
        }
      : {}),
  };
  const onSupply = onChange
    ? (token: string, totalSupply: string) => onChange({ kind: "total_supply", token, totalSupply })
    : undefined;
  const loop = async (name: string, round: () => Promise<number>) => {
    while (!signal.aborted) {
      let handled = 0;
      try {
        handled = await round();
      } catch (err) {
        if (signal.aborted) return;
        o.logger.warn({ err, worker: name }, "Token worker round failed");
      }
      if (handled === 0 && !signal.aborted) {
        const w = new AbortController();
        sleepers.add(w);
        await sleep(o.pollMs ?? 2000, AbortSignal.any([signal, w.signal]));
        sleepers.delete(w);
      }
    }
  };
  const beacon = o.config.beaconNodeUrl ? beaconClient(o.config.beaconNodeUrl) : null;
  const running = Promise.all([
    loop("properties", () => refreshTokenProperties(o.db, o.rpc, 50, onSupply)),
    loop("metadata", () => fetchDueMetadata(o.db, o.rpc, options)),
    // Blob contents, where a beacon node is configured: fetched soon after their blocks, before the beacon node
    // prunes them (about 18 days on Ethereum).
    ...(beacon ? [loop("blobs", () => fetchDueBlobs(o.db, beacon))] : []),
  ]);
  const wake = () => {
    for (const w of sleepers) w.abort();
  };
  const off = o.wakeOn?.on((event) => {
    if (event.kind === "blocks") wake();
  });
  return {
    wake,
    async stop() {
      off?.();
      controller.abort();
      await running;
    },
  };
}
