import { createHash } from "node:crypto";
import type { Hex } from "viem";
import { fromBytea, toBytea } from "../db/bytes.js";
import type { Db } from "../db/db.js";
import { LookoutError } from "../errors/base.js";
import { bareHostname, effectivePort } from "./metadata/allow-list.js";
import { httpGet } from "./metadata/http-get.js";

/** A block's sidecars: up to 21 blobs of 128 KiB (as hex, with commitment and proof each) since BPO2. */
const MAX_SIDECARS_BYTES = 32 * 1024 * 1024;
/** Blocks asked for per round. */
const BLOCKS_PER_ROUND = 10;

/** EIP-4844's versioned hash of a KZG commitment: 0x01 followed by the last 31 bytes of its SHA-256. Pure. */
export function kzgToVersionedHash(commitment: Hex): Hex {
  const digest = createHash("sha256").update(toBytea(commitment)).digest();
  digest[0] = 0x01;
  return `0x${digest.toString("hex")}`;
}

type Sidecar = { blob: Hex; kzg_commitment: Hex; kzg_proof: Hex };

class BeaconError extends LookoutError {
  override name = "BeaconError";
  constructor(what: string) {
    super({ code: "beacon_unavailable", shortMessage: `The beacon node did not answer: ${what}.` });
  }
}

/**
 * The beacon node's HTTP API as the blob fetcher uses it, through the metadata fetcher's SSRF guard: the configured
 * host (and port) is the operator's and is trusted, so it may be a private address; a redirect to any other host is
 * checked like a metadata fetch (no private addresses). Answers are size-bounded and time-bounded.
 */
export function beaconClient(baseUrl: string) {
  const base = new URL(baseUrl);
  const allowedHosts = [{ host: bareHostname(base), port: effectivePort(base) }];
  const get = async (path: string): Promise<unknown | null> => {
    const r = await httpGet(new URL(path, base.href.endsWith("/") ? base : `${base.href}/`).href, {
      allowedHosts,
      maxBytes: MAX_SIDECARS_BYTES,
      headers: { accept: "application/json", "user-agent": "lookout-blob-fetcher" },
    });
    if (!r.ok) {
      // A slot without a block, or blobs the node has pruned: nothing to fetch there, ever.
      if (r.reason === "http_404") return null;
      throw new BeaconError(`${path}: ${r.message}`);
    }
    try {
      return JSON.parse(r.body!.toString("utf8"));
    } catch {
      throw new BeaconError(`${path}: not JSON`);
    }
  };
  let timing: Promise<{ genesis: number; secondsPerSlot: number }> | undefined;
  const slotTiming = () => {
    timing ??= (async () => {
      const [g, s] = (await Promise.all([get("eth/v1/beacon/genesis"), get("eth/v1/config/spec")])) as Array<{
        data?: Record<string, string>;
      } | null>;
      const genesis = Number(g?.data?.genesis_time);
      const secondsPerSlot = Number(s?.data?.SECONDS_PER_SLOT);
      if (!Number.isFinite(genesis) || !(secondsPerSlot > 0))
        throw new BeaconError("no genesis time or slot length");
      return { genesis, secondsPerSlot };
    })().catch((e) => {
      timing = undefined;
      throw e;
    });
    return timing;
  };
  return {
    /** The blob sidecars of the slot of an execution block's timestamp (null: none there). */
    async sidecarsAt(timestamp: number): Promise<Sidecar[] | null> {
      const t = await slotTiming();
      const slot = Math.floor((timestamp - t.genesis) / t.secondsPerSlot);
      const answer = (await get(`eth/v1/beacon/blob_sidecars/${slot}`)) as { data?: Sidecar[] } | null;
      return answer?.data ?? null;
    },
  };
}

export type BeaconClient = ReturnType<typeof beaconClient>;

/**
 * One round of the blob fetcher: the next indexed blocks holding blob transactions, from the place kept in
 * `blob_fetch_state`, each asked for its sidecars; the blobs whose versioned hash a transaction of the block names
 * are kept (`blobs`). The place moves on by compare-and-set, so a reorganisation that moved it back meanwhile (the
 * `blobs` stage's revert) wins. Returns the number of blocks handled (0: nothing to do).
 */
export async function fetchDueBlobs(db: Db, beacon: BeaconClient): Promise<number> {
  const [state] = await db.query<{ next_block: number }>(
    "select next_block from blob_fetch_state where id = 1",
  );
  // Made on the first round; an idle round then only reads.
  if (!state)
    await db.query("insert into blob_fetch_state (id, next_block) values (1, 0) on conflict (id) do nothing");
  const from = Number(state?.next_block ?? 0);
  const blocks = await db.query<{ block_number: number; ts: number; hashes: Uint8Array[] }>(
    `select n.block_number, extract(epoch from b.timestamp)::int8 as ts,
       array(select versioned_hash from transaction_blobs x where x.block_number = n.block_number) as hashes
     from (select distinct block_number from transaction_blobs where block_number >= $1
       order by block_number limit ${BLOCKS_PER_ROUND}) n
     join blocks b on b.number = n.block_number order by n.block_number`,
    [from],
  );
  if (!blocks.length) return 0;
  for (const b of blocks) {
    const wanted = new Set(b.hashes.map(fromBytea));
    const sidecars = (await beacon.sidecarsAt(Number(b.ts))) ?? [];
    const found = sidecars
      .map((s) => ({ ...s, hash: kzgToVersionedHash(s.kzg_commitment) }))
      .filter((s) => wanted.has(s.hash));
    if (found.length)
      await db.query(
        `insert into blobs (hash, blob_data, kzg_commitment, kzg_proof)
         select * from unnest($1::bytea[], $2::bytea[], $3::bytea[], $4::bytea[]) on conflict (hash) do nothing`,
        [
          found.map((s) => toBytea(s.hash)),
          found.map((s) => toBytea(s.blob)),
          found.map((s) => toBytea(s.kzg_commitment)),
          found.map((s) => toBytea(s.kzg_proof)),
        ],
      );
  }
  const next = Number(blocks.at(-1)!.block_number) + 1;
  await db.query("update blob_fetch_state set next_block = $2 where id = 1 and next_block = $1", [
    from,
    next,
  ]);
  return blocks.length;
}
