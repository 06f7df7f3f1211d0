import { createHash } from "node:crypto";
import { sleep } from "../../chain/rpc.js";
import type { ChainConfig } from "../../config/chains.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import { migrate, pendingMigrations } from "../../db/migrate.js";
import { DatabaseError } from "../../db/open.js";
import { LookoutError } from "../../errors/base.js";
import { EventBus } from "../../events/bus.js";
import { eventsChannel } from "../../events/pg-notify.js";
import type { PgListener } from "../../events/pg-relay.js";
import { loadPublicTags } from "../../explorer/objects/tags.js";
import type { LockSession } from "../../indexer/pipeline/lease.js";
import { type LiveUpdates, startLiveUpdates } from "../../live/index.js";
import type { Metrics } from "../../metrics/registry.js";
import type { Logger } from "../../util/logger.js";
import { createVerifiedContractLookup } from "../../verifier/store/index.js";
import type { HealthSources } from "../health.js";
import { type ChainPart, startChain } from "./chain.js";
import { startCrossChainVerification } from "./cross-chain-verification.js";
import type { Databases } from "./database.js";
import { type IndexerPart, startIndexer } from "./indexer.js";
import { startTokenWork, startTokenWorkBesideIndexer } from "./token-work.js";

/** A further chain of a multichain deployment: its own schema, its own settings (RPC, type, name). */
export type FurtherChain = { id: string; name: string; schema: string; config: Config };

/**
 * The chains one deployment indexes and serves. RPC_URL (or, without it and without indexed CHAINS_CONFIG
 * entries, the local anvil) is the first chain, as always; CHAINS_CONFIG's `"index": true` entries are the others.
 * Without RPC_URL the first chain is the indexed entry whose index the `public` schema already holds, else the first
 * entry. The first chain's tables stay in `public`, each further chain's are in `chain_<id>`. `rootId`: the first
 * chain's id when CHAINS_CONFIG names it (then it is served under `/chains/{id}` too, however many chains).
 */
export function planChains(
  config: Config,
  configured: readonly ChainConfig[],
  publicChainId: string | null,
): { root: Config; rootId: string | null; further: FurtherChain[] } {
  const indexed = configured.filter((c) => c.index);
  const first = config.rpcUrl ? null : (indexed.find((c) => c.id === publicChainId) ?? indexed[0] ?? null);
  const further = indexed
    .filter((c) => c !== first && c.id !== publicChainId)
    .map((c) => ({ id: c.id, name: c.name, schema: chainSchema(c.id), config: chainSettings(config, c) }));
  return { root: first ? chainSettings(config, first) : config, rootId: first?.id ?? null, further };
}

export const chainSchema = (id: string) => `chain_${id}`;

const chainSettings = (config: Config, c: ChainConfig): Config => ({
  ...config,
  rpcUrl: c.rpcUrl,
  chainName: c.name,
  chainType: c.chainType ?? config.chainType,
});

/** The indexing lease of a further chain: the first chain's lock space, a key of its own (never the first's 1). */
function leaseKey(id: string): [number, number] {
  const k = createHash("sha256").update(`chain:${id}`).digest().readInt32BE(0);
  return [7163, k === 1 ? 2 : k];
}

export type FurtherChainPart = {
  chain: FurtherChain;
  /** The chain's handles: the shared connections, its schema first on the search path. */
  dbs: Databases;
  live: LiveUpdates;
  health: HealthSources;
  stop(): Promise<void>;
};

/** How long a further chain whose node or index failed waits before it starts again (the others go on). */
const RESTART_AFTER_MS = 15_000;

/**
 * One further chain: its schema migrated (or checked), its socket, and, on the roles that index, its indexer and
 * token work started in the background. A chain whose node cannot be reached, whose node serves another chain id,
 * or whose indexer stops on an error is logged and started again later; the other chains are not touched.
 */
export async function startFurtherChain(o: {
  chain: FurtherChain;
  base: Databases;
  migrate: boolean;
  index: boolean;
  serve: boolean;
  tokenWork: boolean;
  reset: boolean;
  metrics: Metrics;
  logger: Logger;
  /** The deployment's shared connections (PostgreSQL): one LISTEN and one lock connection for all its chains. */
  shared?: { listener?: PgListener; locks?: LockSession };
}): Promise<FurtherChainPart> {
  const { chain } = o;
  const logger = o.logger.child({ chain_id: chain.id });
  const db = inSchema(o.base.db, chain.schema);
  const readDb = o.base.readDb === o.base.db ? db : inSchema(o.base.readDb, chain.schema);
  await prepareSchema(db, chain, o.migrate, logger);
  const dbs: Databases = { db, readDb, writability: o.base.writability, close: async () => {} };
  const bus = new EventBus();
  const config = chain.config;
  const live = startLiveUpdates({
    db,
    databaseUrl: config.databaseUrl,
    logger: logger.child({ part: "live" }),
    serve: o.serve,
    bus,
    channel: eventsChannel(chain.schema),
    ...(o.shared?.listener ? { listener: o.shared.listener } : {}),
    addressDeps: {
      verified: createVerifiedContractLookup(readDb),
      tags: loadPublicTags(config.publicTagsFile),
      gateways: { ipfs: config.ipfsGatewayUrl, arweave: config.arweaveGatewayUrl },
    },
  });

  let indexerPart: IndexerPart | null = null;
  const controller = new AbortController();
  const running = o.index || o.tokenWork ? runChain() : Promise.resolve();

  async function runChain(): Promise<void> {
    while (!controller.signal.aborted) {
      const parts: Array<{ stop(): Promise<void> }> = [];
      try {
        const node: ChainPart = await startChain(config, {
          launchAnvil: false,
          reset: o.reset,
          db,
          metrics: o.metrics,
          logger,
        });
        parts.push(node);
        const rpc = node.rpc!;
        const served = String(Number(await rpc.request<string>("eth_chainId", [])));
        if (served !== chain.id)
          throw new LookoutError({
            code: "wrong_chain",
            shortMessage: `CHAINS_CONFIG's chain ${chain.id} (${chain.name}): its rpcUrl serves chain ${served}.`,
          });
        if (!o.index) {
          parts.push(startTokenWork({ config, db, logger, bus, rpc }));
          await waitAborted(controller.signal);
        } else {
          const part = await startIndexer({
            config,
            db,
            rpc,
            anvil: null,
            reset: o.reset,
            logger,
            metrics: o.metrics,
            bus,
            leaseKey: leaseKey(chain.id),
            ...(o.shared?.locks ? { lockSession: o.shared.locks } : {}),
          });
          indexerPart = part;
          parts.push(part);
          parts.push(
            startTokenWorkBesideIndexer({
              config,
              db,
              logger,
              bus,
              rpc,
              indexing: () => part.lease.held(),
              onChange: (c) => void live.publishTokenChange(c),
            }),
          );
          parts.push(startCrossChainVerification({ db, chainId: chain.id, logger }));
          await Promise.race([part.done, waitAborted(controller.signal)]);
        }
      } catch (err) {
        if (controller.signal.aborted) break;
        logger.error(
          { err, retry_in_ms: RESTART_AFTER_MS },
          `Chain ${chain.id} (${chain.name}) stopped; the other chains go on. Starting it again later.`,
        );
      } finally {
        indexerPart = null;
        for (const p of parts.reverse())
          await p.stop().catch((err: unknown) => logger.warn({ err }, "Shutdown step failed"));
      }
      await sleep(RESTART_AFTER_MS, controller.signal).catch(() => {});
    }
  }

  const health: HealthSources = {
    writable: () => dbs.writability.writable,
    requiresWrite: o.index,
    get progress() {
      return indexerPart?.indexer.progress;
    },
    chainId: () => Number(chain.id),
    ...(o.index ? { lease: () => ({ held: indexerPart?.lease.held() ?? false, kind: "chain" }) } : {}),
  } as HealthSources;
  return {
    chain,
    dbs,
    live,
    health,
    async stop() {
      controller.abort();
      await running;
      await live.stop();
    },
  };
}

function inSchema(db: Db, schema: string): Db {
  if (!db.inSchema) throw new Error("This database handle cannot serve several chains");
  return db.inSchema(schema);
}

/** The chain's schema: migrated by the roles that migrate, else checked like `public` (roles/database.ts). */
async function prepareSchema(db: Db, chain: FurtherChain, run: boolean, logger: Logger): Promise<void> {
  const target = { schema: chain.schema };
  if (run) {
    const m = await migrate(db, undefined, target);
    if (m.applied.length)
      logger.info({ schema: chain.schema, applied: m.applied.length }, "Applied the chain's migrations");
    return;
  }
  const pending = await pendingMigrations(db, undefined, target);
  if (pending.length)
    throw new DatabaseError({
      code: "schema_behind",
      shortMessage: `The schema ${chain.schema} of chain ${chain.id} lacks ${pending.length} migration(s). Run \`lookout migrate\` (with the same CHAINS_CONFIG) first, or start this process with --migrate.`,
    });
}

const waitAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
