import { type Address, decodeAbiParameters, type Hex, parseAbiItem, toEventSelector } from "viem";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { refreshTokenProperties } from "../../src/token-workers/properties.js";
import { deployActivityContracts, mineActivity, rpc, rpcBatch } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke } from "../helpers/tokens.js";

/** What the node says about one item of the advanced filter list (a transaction, a transfer or a frame). */
export type NodeItem = {
  kind: 0 | 1 | 2;
  hash: Hex;
  block: number;
  timestamp: number;
  txIndex: number;
  /** Log index of a transfer, depth-first index of a frame, 0 for a transaction. */
  sub: number;
  /** Blockscout's batch position of a transfer (counts down to 1), null otherwise. */
  rev: number | null;
  from: Address;
  to: Address | null;
  created: Address | null;
  /** Wei for transactions and frames; null for transfers. */
  value: string | null;
  /** The input whose selector the methods filter reads: the frame's for a frame, else the transaction's. */
  input: Hex;
  fee: bigint;
  success: boolean;
  token: Address | null;
  tokenType: string | null;
  tokenId: string | null;
  amount: string | null;
};

export type FilterWorld = {
  chain: TestChain;
  db: TestDb;
  app: App;
  url: string;
  coin: Address;
  nft: Address;
  multi: Address;
  accounts: Address[];
  /** Every item in Blockscout's order (newest block first; a transaction, its transfers, then its frames). */
  items: NodeItem[];
  stop(): Promise<void>;
};

type Frame = {
  type: string;
  from: Address;
  to?: Address;
  value?: Hex;
  input?: Hex;
  gasUsed?: Hex;
  error?: string;
  calls?: Frame[];
};
type Log = { address: Address; topics: Hex[]; data: Hex; logIndex: Hex };
type Receipt = {
  status: Hex;
  gasUsed: Hex;
  effectiveGasPrice: Hex;
  contractAddress: Address | null;
  logs: Log[];
};
type NodeTx = {
  hash: Hex;
  from: Address;
  to: Address | null;
  value: Hex;
  input: Hex;
  transactionIndex: Hex;
};

const TRANSFER = toEventSelector("event Transfer(address indexed from, address indexed to, uint256 value)");
const SINGLE = toEventSelector(
  parseAbiItem(
    "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  ),
);
const BATCH = toEventSelector(
  parseAbiItem(
    "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  ),
);
const lower = (a: string) => a.toLowerCase() as Address;
const topicAddress = (t: Hex) => lower(`0x${t.slice(26)}`);

/** The frames of a call tree in depth-first order (index 0 the top frame). */
function flatten(f: Frame, out: Frame[] = []): Frame[] {
  out.push(f);
  for (const c of f.calls ?? []) flatten(c, out);
  return out;
}

/**
 * An anvil chain with ETH transfers, an ERC-20 (two of them: TestCoin and the activity token), an ERC-721, an
 * ERC-1155 batch, value-forwarding calls (frames), creations by transactions and inside them (CREATE, CREATE2),
 * several transactions per block, indexed with the explorer's stages, and the app; plus the node's own account of
 * every item of the advanced filter list.
 */
export async function startFilterWorld(): Promise<FilterWorld> {
  const chain = await startTestChain();
  const url = chain.anvil.url;
  const accounts = chain.accounts.slice(0, 10).map((a) => lower(a.address));
  const [A, B, C, D] = accounts as [Address, Address, Address, Address];
  const coin = await deploy(url, A, "TestCoin", [10n ** 24n]);
  await invoke(url, A, coin, "TestCoin", "transfer", [B, 5n * 10n ** 18n]);
  await invoke(url, B, coin, "TestCoin", "transfer", [C, 10n ** 18n]);
  const nft = await deploy(url, A, "TestNft", ["Things", "THG", ""]);
  await invoke(url, A, nft, "TestNft", "mint", [B, 7n]);
  await invoke(url, B, nft, "TestNft", "transferFrom", [B, C, 7n]);
  const multi = await deploy(url, A, "Test1155", [""]);
  await invoke(url, A, multi, "Test1155", "mintBatch", [B, [2n, 3n, 4n], [20n, 30n, 40n]]);
  await invoke(url, B, multi, "Test1155", "safeTransferFrom", [B, D, 2n, 5n, "0x"]);
  const k = await deployActivityContracts(url); // automine off from here
  await mineActivity(url, k, { blocks: 12, txPerBlock: 5, seed: 7 });

  const db = await createTestDb();
  const indexer = await createTestIndexer(db.db, url, {
    extensions: [...explorerExtensions(), coinBalanceExtension(), currentBalancesExtension()],
  });
  await indexToHead(indexer, db.db, url);
  const r = createRpc({ url, batchSize: 50, timeoutMs: 5000, retries: 1 });
  while ((await refreshTokenProperties(db.db, r)) > 0);
  const app = await buildApp({ db: db.db, config: { bodyLimit: 1e6 }, logger: false });

  const types = new Map<Address, string>([
    [coin, "ERC-20"],
    [lower(k.token), "ERC-20"],
    [nft, "ERC-721"],
    [multi, "ERC-1155"],
  ]);
  const items = await nodeItems(url, types);
  return {
    chain,
    db,
    app,
    url,
    coin,
    nft,
    multi,
    accounts,
    items,
    async stop() {
      await app.close();
      await db.drop();
      await chain.stop();
    },
  };
}

/** The advanced filter's items as the node tells them: blocks, receipts (transfers) and call traces (frames). */
async function nodeItems(url: string, tokenTypes: ReadonlyMap<Address, string>): Promise<NodeItem[]> {
  const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
  const out: NodeItem[] = [];
  for (let n = head; n >= 0; n--) {
    const block = await rpc<{ timestamp: Hex; transactions: NodeTx[] }>(url, "eth_getBlockByNumber", [
      `0x${n.toString(16)}`,
      true,
    ]);
    const txs = [...block.transactions].reverse();
    if (!txs.length) continue;
    const receipts = await rpcBatch<Receipt>(
      url,
      txs.map((t) => ({ method: "eth_getTransactionReceipt", params: [t.hash] })),
    );
    const traces = await rpcBatch<Frame>(
      url,
      txs.map((t) => ({ method: "debug_traceTransaction", params: [t.hash, { tracer: "callTracer" }] })),
    );
    for (const [i, tx] of txs.entries()) {
      const rc = receipts[i]!;
      const price = BigInt(rc.effectiveGasPrice);
      const base = {
        hash: tx.hash,
        block: n,
        timestamp: Number(block.timestamp),
        txIndex: Number(tx.transactionIndex),
        success: rc.status === "0x1",
        token: null,
        tokenType: null,
        tokenId: null,
        amount: null,
      };
      out.push({
        ...base,
        kind: 0,
        sub: 0,
        rev: null,
        from: lower(tx.from),
        to: tx.to && lower(tx.to),
        created: rc.contractAddress && lower(rc.contractAddress),
        value: BigInt(tx.value).toString(),
        input: tx.input,
        fee: price * BigInt(rc.gasUsed),
      });
      const transfers: NodeItem[] = [];
      for (const log of rc.logs) {
        const token = lower(log.address);
        const type = tokenTypes.get(token);
        if (!type) continue;
        const t0 = log.topics[0];
        const common = {
          ...base,
          kind: 1 as const,
          sub: Number(log.logIndex),
          created: null,
          value: null,
          input: tx.input,
          fee: price * BigInt(rc.gasUsed),
          token,
          tokenType: type,
        };
        if (t0 === TRANSFER && log.topics.length === 3)
          transfers.push({
            ...common,
            rev: 1,
            from: topicAddress(log.topics[1]!),
            to: topicAddress(log.topics[2]!),
            amount: BigInt(log.data).toString(),
          });
        else if (t0 === TRANSFER && log.topics.length === 4)
          transfers.push({
            ...common,
            rev: 1,
            from: topicAddress(log.topics[1]!),
            to: topicAddress(log.topics[2]!),
            tokenId: BigInt(log.topics[3]!).toString(),
            amount: "1",
          });
        else if (t0 === SINGLE) {
          const [id, value] = decodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], log.data);
          transfers.push({
            ...common,
            rev: 1,
            from: topicAddress(log.topics[2]!),
            to: topicAddress(log.topics[3]!),
            tokenId: id.toString(),
            amount: value.toString(),
          });
        } else if (t0 === BATCH) {
          const [ids, values] = decodeAbiParameters([{ type: "uint256[]" }, { type: "uint256[]" }], log.data);
          for (const [j, id] of ids.entries())
            transfers.push({
              ...common,
              rev: ids.length - j,
              from: topicAddress(log.topics[2]!),
              to: topicAddress(log.topics[3]!),
              tokenId: id.toString(),
              amount: values[j]!.toString(),
            });
        }
      }
      // Newest log first; inside a batch, the batch's own order.
      transfers.sort((a, b) => b.sub - a.sub || b.rev! - a.rev!);
      out.push(...transfers);
      const frames = flatten(traces[i]!)
        .map((f, index) => ({ f, index }))
        .filter(({ f, index }) => index > 0 || /^CREATE/.test(f.type));
      for (const { f, index } of frames.reverse()) {
        const create = /^CREATE/.test(f.type);
        out.push({
          ...base,
          kind: 2,
          sub: index,
          rev: null,
          from: lower(f.from),
          to: create ? null : f.to ? lower(f.to) : null,
          created: create && !f.error && f.to ? lower(f.to) : null,
          value: BigInt(f.value ?? "0x0").toString(),
          input: f.input ?? "0x",
          fee: price * BigInt(f.gasUsed ?? "0x0"),
        });
      }
    }
  }
  return out;
}
