import type { Address, Hex } from "viem";
import type { Rpc } from "../../../chain/rpc.js";
import type { FetchedBlock } from "../../../chain/types.js";
import { newestProxiesSql } from "../../../chain-store/proxies.js";
import { answerProxyRefreshes, openProxyRefreshes } from "../../../chain-store/proxy-refresh.js";
import { fromBytea, toBytea } from "../../../db/bytes.js";
import { command, type Queryable } from "../../../db/db.js";
import { type IndexerExtension, stageSlot } from "../../pipeline/extension.js";
import { markNewContracts, unmarkLostContracts } from "../core/transaction-facts.js";
import { detectProxy, type ProxyInfo, UPGRADED_TOPIC } from "./detect.js";

/** Refresh requests (verifyproxycontract) answered per batch at most; the rest wait for the next one. */
const REFRESHES_PER_BATCH = 20;

/**
 * A contract whose implementation may have changed in a batch, at its last block there. `code`: its runtime code,
 * when a transaction of that block created it and the block's call traces give what the creation returned.
 */
export type ProxyCandidate = { address: Address; blockNumber: number; code?: Hex };

/** Contracts whose implementation may have changed in a batch: created by a transaction, or emitting Upgraded. Pure. */
export function proxyCandidates(batch: readonly FetchedBlock[]): ProxyCandidate[] {
  const out = new Map<Address, ProxyCandidate>();
  const put = (address: Address, blockNumber: number, code: Hex | undefined) =>
    out.set(address, { address, blockNumber, ...(code !== undefined ? { code } : {}) });
  for (const b of batch) {
    const n = Number(b.block.number);
    b.receipts.forEach((r, i) => {
      if (r.contractAddress && (r.status === undefined || r.status === "0x1")) {
        const root = b.calls?.[i];
        put(r.contractAddress.toLowerCase() as Address, n, root && !root.error ? root.output : undefined);
      }
      for (const l of r.logs)
        if (l.topics[0] === UPGRADED_TOPIC) {
          const address = l.address.toLowerCase() as Address;
          const seen = out.get(address);
          // The code of a creation in the same block still holds; a creation in an earlier block of the batch
          // says nothing of the code at this one (a CREATE2 address can be destroyed and created again).
          put(address, n, seen?.blockNumber === n ? seen.code : undefined);
        }
    });
  }
  return [...out.values()];
}

/** A block's candidates, each read at the block when it arrived (null: no proxy there). */
type Detected = Array<ProxyCandidate & { info: ProxyInfo | null }>;
const DETECTED = stageSlot<Detected>("proxies");

const detectAll = (rpc: Rpc, candidates: readonly ProxyCandidate[]) =>
  Promise.all(candidates.map((c) => detectProxy(rpc, c.address, c.blockNumber, c.code)));

/**
 * The batch's candidates with what was read for each: per address its last block in the batch (as
 * `proxyCandidates` of the whole batch), read when that block arrived, or now for a block fetched without it.
 */
async function detectBatch(batch: readonly FetchedBlock[], rpc: Rpc) {
  const candidates = proxyCandidates(batch);
  const first = Number(batch[0]?.block.number ?? 0);
  const missing: number[] = [];
  const found = candidates.map((c, i) => {
    const own = DETECTED.of(batch[c.blockNumber - first]!)?.find((d) => d.address === c.address);
    if (!own) missing.push(i);
    return own?.info ?? null;
  });
  const late = await detectAll(
    rpc,
    missing.map((i) => candidates[i]!),
  );
  missing.forEach((i, k) => {
    found[i] = late[k] ?? null;
  });
  return candidates.map((c, i) => ({ ...c, info: found[i] ?? null }));
}

/**
 * Proxy detection at indexing time (not lazily at request time): the HTTP side has no node access, and reading
 * the slots at the block of the creation or of the Upgraded event gives a history that a reorg can cut back.
 * Only creations and Upgraded events cost calls, so the block pipeline pays for it rarely.
 */
type OpenRefreshes = Array<{ guid: string; address: Address }>;
const openRefreshes = (tx: Queryable): Promise<OpenRefreshes> => openProxyRefreshes(tx, REFRESHES_PER_BATCH);

export function createProxiesExtension(): IndexerExtension<Detected, OpenRefreshes> {
  return {
    id: DETECTED.id,
    prepare: async (tx, _batch, ctx) => (ctx.history ? [] : openRefreshes(tx)),
    // The slots are read when the block arrives, not in the batch transaction: a JSON-RPC round trip there holds
    // every later range's write.
    afterFetch: async (rpc, fetched) => {
      const candidates = proxyCandidates([fetched]);
      const found = await detectAll(rpc, candidates);
      return candidates.map((c, i) => ({ ...c, info: found[i] ?? null }));
    },
    async write(tx: Queryable, batch, ctx) {
      // A creation that is no proxy needs no row; an Upgraded event is recorded even if the slot reads empty.
      const rows: ProxyRow[] = (await detectBatch(batch, ctx.rpc)).filter((r) => r.info);
      // Refresh requests are answered at the head, never by history catching up below it.
      if (!ctx.history) {
        const open = await (ctx.prepared ?? openRefreshes(tx));
        if (open.length)
          rows.push(
            ...(await answerRefreshes(
              tx,
              ctx.rpc,
              Number(batch[batch.length - 1]!.block.number),
              rows,
              open,
            )),
          );
      }
      if (!rows.length) return;
      await command(
        tx,
        `insert into address_proxies (address, block_number, proxy_type, implementation)
         select * from unnest($1::bytea[], $2::int8[], $3::text[], $4::bytea[])
         on conflict (address, block_number) do update set proxy_type = excluded.proxy_type, implementation = excluded.implementation`,
        [
          rows.map((r) => toBytea(r.address)),
          rows.map((r) => r.blockNumber),
          rows.map((r) => r.info!.proxyType),
          rows.map((r) => toBytea(r.info!.implementation)),
        ],
      );
      // A proxy is a contract: transactions to one the index knew no other way are contract calls now.
      await markNewContracts(
        tx,
        rows.map((r) => toBytea(r.address)),
        Number(batch[0]!.block.number),
      );
    },
    async revert(tx, ancestor) {
      const gone = await tx.query<{ address: Uint8Array }>(
        "delete from address_proxies where block_number > $1 returning address",
        [ancestor],
      );
      await unmarkLostContracts(
        tx,
        gone.map((r) => r.address),
      );
    },
  };
}

type ProxyRow = { address: Address; blockNumber: number; info: ProxyInfo };

/**
 * Answers the open refresh requests (verifyproxycontract) by reading each proxy at the batch's last block `head`;
 * returns the rows to write where that differs from what the index holds (and the batch does not write already).
 */
async function answerRefreshes(
  tx: Queryable,
  rpc: Rpc,
  head: number,
  batchRows: readonly ProxyRow[],
  open: ReadonlyArray<{ guid: string; address: Address }>,
): Promise<ProxyRow[]> {
  // Addresses come lower-case from the table, as the batch's candidates do.
  const addresses = [...new Set(open.map((r) => r.address))];
  const infos = new Map(
    await Promise.all(addresses.map(async (a) => [a, await detectProxy(rpc, a, head)] as const)),
  );
  const known = new Map<string, string | null>();
  for (const r of await tx.query<{ address: Uint8Array; implementation: Uint8Array | null }>(
    newestProxiesSql("$1::bytea[]", "implementation", "block_number <= $2"),
    [addresses.map(toBytea), head],
  ))
    known.set(fromBytea(r.address), r.implementation ? fromBytea(r.implementation) : null);
  for (const r of batchRows) known.set(r.address, r.info?.implementation ?? null);
  await answerProxyRefreshes(
    tx,
    open.map((r) => ({
      guid: r.guid,
      block: head,
      implementation: infos.get(r.address)?.implementation ?? null,
    })),
  );
  return addresses
    .filter((a) => {
      const info = infos.get(a);
      return info && known.get(a) !== info.implementation;
    })
    .map((a) => ({ address: a, blockNumber: head, info: infos.get(a)! }));
}
