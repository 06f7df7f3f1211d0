import { readFileSync } from "node:fs";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app/http-app.js";
import { AddressSchema } from "../../src/explorer/address/schema.js";
import {
  AddressCountersSchema,
  AddressTabsCountersSchema,
} from "../../src/explorer/address-counters/schema.js";
import { InternalTransactionsResponseSchema } from "../../src/explorer/internal-transaction/schema.js";
import { LogsResponseAddressSchema, LogsResponseTxSchema } from "../../src/explorer/log/schema.js";
import { transactionsSince } from "../../src/explorer/stats/query.js";
import { AddressTokensResponseSchema, TokenBalancesSchema } from "../../src/explorer/token-balance/schema.js";
import { TokenTransferResponseSchema } from "../../src/explorer/token-transfer/schema.js";
import { TopAccountsResponseSchema } from "../../src/explorer/top-account/schema.js";
import {
  AddressWithdrawalsResponseSchema,
  BlockWithdrawalsResponseSchema,
} from "../../src/explorer/withdrawal/schema.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { packagePath } from "../../src/util/package-root.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import {
  type ActivityContracts,
  activityContracts,
  deployActivityContracts,
  mineActivity,
  rpc,
  rpcBatch,
} from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { solcModule } from "../helpers/solc.js";
import { deploy, invoke } from "../helpers/tokens.js";
import { buildVerifierApp, offlineVerifierCompilers } from "../helpers/verify.js";
import { standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const ZERO = "0x0000000000000000000000000000000000000000";

type RpcLog = {
  address: Hex;
  topics: Hex[];
  data: Hex;
  logIndex: Hex;
  transactionHash: Hex;
  blockNumber: Hex;
};
type Receipt = {
  transactionHash: Hex;
  blockNumber: Hex;
  transactionIndex: Hex;
  from: Hex;
  to: Hex | null;
  contractAddress: Hex | null;
  gasUsed: Hex;
  effectiveGasPrice: Hex;
  status: Hex;
  logs: RpcLog[];
};
type Frame = { type: string; from: Hex; to?: Hex; value?: Hex; gas?: Hex; error?: string; calls?: Frame[] };
/** One expected internal transaction: a frame of the node's callTracer tree, depth-first numbered. */
type NodeFrame = { tx: Hex; block: number; txIndex: number; index: number; frame: Frame };

const lower = (a: string) => a.toLowerCase();
const num = (h: Hex) => Number(BigInt(h));

describe("explorer lists: token transfers, internal transactions, logs, withdrawals, counters, tokens", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let compilers: CompilerRegistry;
  let indexer: Indexer;
  let k: ActivityContracts;
  let url: string;
  const receipts: Receipt[] = [];
  const frames: NodeFrame[] = [];
  const checked: Array<{ url: string; schema: TSchema; body: unknown }> = [];
  let a0: Address;
  let nft: Address;
  let nftMint: Hex;

  const get = async (path: string, schema?: TSchema) => {
    const r = await app.inject({ url: path });
    const body = r.json() as any;
    if (schema && r.statusCode === 200) checked.push({ url: path, schema, body });
    return { status: r.statusCode, body };
  };

  /** Follows next_page_params to the end; every page validated against `schema`. */
  const walk = async (path: string, schema: TSchema) => {
    const items: any[] = [];
    let params: Record<string, unknown> | null = null;
    for (let i = 0; i < 100; i++) {
      // The frontend sends the list's filters with next_page_params merged over them.
      const [base, query] = path.split("?") as [string, string | undefined];
      const qs = new URLSearchParams(query);
      for (const [k, v] of Object.entries(params ?? {})) qs.set(k, String(v));
      const full = qs.size ? `${base}?${qs}` : base;
      const r = await get(full, schema);
      expect(r.status, JSON.stringify([full, r.body])).toBe(200);
      items.push(...r.body.items);
      params = r.body.next_page_params;
      if (!params) return items;
      expect(r.body.items).toHaveLength(50);
    }
    throw new Error("no last page");
  };

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    a0 = lower(chain.accounts[0]!.address) as Address;
    t = await createTestDb();
    compilers = await offlineVerifierCompilers();
    app = await buildVerifierApp(t.db, chain, compilers);
    k = await deployActivityContracts(url);
    await mineActivity(url, k, { blocks: 90, txPerBlock: 6, seed: 5 });
    await rpc(url, "evm_setAutomine", [true]);
    nft = await deploy(url, a0, "TestNft", ["Alpha", "A", ""]);
    nftMint = await invoke(url, a0, nft, "TestNft", "mintMany", [a0, 7n, 3n]);
    // With the coin balances, as production indexes: the top accounts list reads them.
    indexer = await createTestIndexer(t.db, url, {
      extensions: [coinBalanceExtension(), currentBalancesExtension(), ...explorerExtensions()],
    });
    await indexToHead(indexer, t.db, url);

    // The truth, from the node: every receipt and every transaction's call tree.
    const head = num(await rpc<Hex>(url, "eth_blockNumber"));
    const blocks = await rpcBatch<{ transactions: Hex[] }>(
      url,
      Array.from({ length: head + 1 }, (_, n) => ({
        method: "eth_getBlockByNumber",
        params: [`0x${n.toString(16)}`, false],
      })),
    );
    const hashes = blocks.flatMap((b) => b.transactions);
    receipts.push(
      ...(await rpcBatch<Receipt>(
        url,
        hashes.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })),
      )),
    );
    const traces = await rpcBatch<Frame>(
      url,
      hashes.map((h) => ({ method: "debug_traceTransaction", params: [h, { tracer: "callTracer" }] })),
    );
    traces.forEach((root, i) => {
      const r = receipts[i]!;
      let index = 0;
      const visit = (f: Frame) => {
        frames.push({
          tx: r.transactionHash,
          block: num(r.blockNumber),
          txIndex: num(r.transactionIndex),
          index: index++,
          frame: f,
        });
        for (const c of f.calls ?? []) visit(c);
      };
      visit(root);
    });

    // Verify SimpleToken with the compiler and settings its fixture was built with: its logs then decode.
    const version = versionFor(compilers, solcModule().version().split("+")[0]!);
    const v = await app.inject({
      method: "POST",
      url: "/api/v1/solidity/sources:verify-standard-json",
      payload: {
        contracts: [{ chainId: String(chain.anvil.chainId), address: k.token }],
        compiler: version,
        input: standardJsonText(
          { "Activity.sol": readFileSync(packagePath("test/contracts/Activity.sol"), "utf8") },
          { optimizer: { enabled: true, runs: 200 } },
        ),
      },
    });
    expect(v.json().contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await compilers?.close();
    await t?.drop();
    await chain?.stop();
  });

  const transferLogs = () =>
    receipts.flatMap((r) =>
      r.logs.filter((l) => lower(l.address) === lower(k.token) && l.topics[0] === TRANSFER),
    );
  /** ERC-20 and ERC-721 Transfer logs alike. */
  const allTransferLogs = () => receipts.flatMap((r) => r.logs.filter((l) => l.topics[0] === TRANSFER));
  const topicAddress = (topic: Hex) => `0x${topic.slice(26)}`;
  // Blockscout leaves out the top-level call (it repeats the transaction); a top-level create stays.
  const listed = (f: NodeFrame) => !(f.index === 0 && f.frame.type === "CALL");

  it("token transfers of a transaction match the node's Transfer logs, with the method from the verified ABI", async () => {
    const log = transferLogs().find((l) => topicAddress(l.topics[1]!) !== ZERO)!;
    const r = await get(
      `/api/v2/transactions/${log.transactionHash}/token-transfers`,
      TokenTransferResponseSchema,
    );
    expect(r.status).toBe(200);
    expect(r.body.next_page_params).toBeNull();
    expect(r.body.items).toHaveLength(1);
    const item = r.body.items[0];
    // The frontend sends `type=` when no type is picked: all types, as no filter.
    const empty = await get(
      `/api/v2/transactions/${log.transactionHash}/token-transfers?type=`,
      TokenTransferResponseSchema,
    );
    expect(empty).toEqual(r);
    expect(item).toMatchObject({
      transaction_hash: log.transactionHash,
      type: "token_transfer",
      log_index: num(log.logIndex),
      block_number: num(log.blockNumber),
      method: "transfer",
      token: { address_hash: getAddress(k.token), type: "ERC-20" },
      total: { value: BigInt(log.data).toString() },
    });
    expect(item.from.hash).toBe(getAddress(topicAddress(log.topics[1]!)));
    expect(item.to.hash).toBe(getAddress(topicAddress(log.topics[2]!)));

    const mint = transferLogs().find((l) => topicAddress(l.topics[1]!) === ZERO)!;
    const m = await get(
      `/api/v2/transactions/${mint.transactionHash}/token-transfers`,
      TokenTransferResponseSchema,
    );
    expect(m.body.items[0]).toMatchObject({
      type: "token_minting",
      total: { value: (10n ** 30n).toString() },
    });

    const mints = await get(`/api/v2/transactions/${nftMint}/token-transfers`, TokenTransferResponseSchema);
    expect(
      mints.body.items.map((i: any) => [i.type, i.to.hash, i.total.token_id, i.total.token_instance?.id]),
    ).toEqual(["7", "8", "9"].map((id) => ["token_minting", getAddress(a0), id, id]));
    const details = await get(`/api/v2/transactions/${log.transactionHash}`);
    expect(details.body.token_transfers?.[0]?.log_index).toBe(num(log.logIndex));
  });

  it("logs of a transaction equal the receipt's, decoded with the verified ABI", async () => {
    const tokenTx = receipts.find((r) => r.logs.some((l) => lower(l.address) === lower(k.token)) && r.to)!;
    const r = await get(`/api/v2/transactions/${tokenTx.transactionHash}/logs`, LogsResponseTxSchema);
    expect(r.body.items.map((i: any) => [i.index, i.data, i.topics.filter(Boolean)])).toEqual(
      tokenTx.logs.map((l) => [num(l.logIndex), l.data, l.topics]),
    );
    const d = r.body.items[0].decoded;
    expect(d).toMatchObject({
      method_id: "ddf252ad",
      method_call: "Transfer(address indexed from, address indexed to, uint256 value)",
    });
    expect(d.parameters).toEqual([
      {
        name: "from",
        type: "address",
        indexed: true,
        value: getAddress(topicAddress(tokenTx.logs[0]!.topics[1]!)),
      },
      {
        name: "to",
        type: "address",
        indexed: true,
        value: getAddress(topicAddress(tokenTx.logs[0]!.topics[2]!)),
      },
      { name: "value", type: "uint256", indexed: false, value: BigInt(tokenTx.logs[0]!.data).toString() },
    ]);
    // The factory is not verified: its Created event stays undecoded.
    const created = receipts.find((r) => r.to && lower(r.to) === lower(k.factory) && r.logs.length)!;
    const c = await get(`/api/v2/transactions/${created.transactionHash}/logs`, LogsResponseTxSchema);
    expect(c.body.items.at(-1)).toMatchObject({ decoded: null, address: { hash: getAddress(k.factory) } });
  });

  it("internal transactions of a transaction are the node's call frames without the top-level call", async () => {
    for (const target of [k.forwarder, k.factory]) {
      const tx = receipts.find((r) => r.to && lower(r.to) === lower(target) && r.status === "0x1")!;
      const expected = frames.filter((f) => f.tx === tx.transactionHash && listed(f));
      expect(expected.length).toBeGreaterThan(0);
      const r = await get(
        `/api/v2/transactions/${tx.transactionHash}/internal-transactions`,
        InternalTransactionsResponseSchema,
      );
      expect(
        r.body.items.map((i: any) => [
          i.index,
          i.type,
          i.from.hash,
          i.to?.hash ?? null,
          i.created_contract?.hash ?? null,
          i.value,
          i.success,
        ]),
      ).toEqual(
        expected.map((f) => {
          const create = f.frame.type.startsWith("CREATE");
          return [
            f.index,
            f.frame.type.toLowerCase(),
            getAddress(f.frame.from),
            create ? null : getAddress(f.frame.to!),
            create ? getAddress(f.frame.to!) : null,
            BigInt(f.frame.value ?? 0).toString(),
            !f.frame.error,
          ];
        }),
      );
    }
    // A plain ETH transfer has only its top-level call: nothing to list.
    const plain = receipts.find(
      (r) =>
        r.to && r.logs.length === 0 && ![k.forwarder, k.factory, k.token].map(lower).includes(lower(r.to)),
    )!;
    const p = await get(`/api/v2/transactions/${plain.transactionHash}/internal-transactions`);
    expect(p.body).toEqual({ items: [], next_page_params: null });
  });

  it("address token transfers page to the end without gaps or repeats, filtered by direction and token", async () => {
    const involving = (dir: "from" | "to" | null, only?: Address) =>
      allTransferLogs()
        .filter((l) => !only || lower(l.address) === only)
        .filter((l) => {
          const from = topicAddress(l.topics[1]!);
          const to = topicAddress(l.topics[2]!);
          return dir === "from" ? from === a0 : dir === "to" ? to === a0 : from === a0 || to === a0;
        })
        .map((l) => `${num(l.blockNumber)}:${num(l.logIndex)}`)
        .reverse();
    const all = await walk(`/api/v2/addresses/${a0}/token-transfers`, TokenTransferResponseSchema);
    expect(involving(null).length).toBeGreaterThan(50);
    expect(all.map((i) => `${i.block_number}:${i.log_index}`)).toEqual(involving(null));
    const unfiltered = await walk(
      `/api/v2/addresses/${a0}/token-transfers?type=&filter=&token=`,
      TokenTransferResponseSchema,
    );
    expect(unfiltered).toEqual(all);
    const from = await walk(
      `/api/v2/addresses/${a0}/token-transfers?filter=from&type=ERC-20`,
      TokenTransferResponseSchema,
    );
    expect(from.map((i) => `${i.block_number}:${i.log_index}`)).toEqual(
      involving("from", lower(k.token) as Address),
    );
    const to = await walk(
      `/api/v2/addresses/${a0}/token-transfers?filter=to&token=${k.token}`,
      TokenTransferResponseSchema,
    );
    expect(to.map((i) => `${i.block_number}:${i.log_index}`)).toEqual(
      involving("to", lower(k.token) as Address),
    );
    const nfts = await walk(
      `/api/v2/addresses/${a0}/token-transfers?type=ERC-721`,
      TokenTransferResponseSchema,
    );
    expect(nfts.map((i) => `${i.block_number}:${i.log_index}`)).toEqual(involving(null, nft));
    const none = await get(`/api/v2/addresses/${a0}/token-transfers?type=ERC-1155`);
    expect(none.body).toEqual({ items: [], next_page_params: null });
  });

  it("address internal transactions page to the end, equal to the node's frames of the address", async () => {
    const f = lower(k.forwarder);
    const expected = frames
      .filter((x) => listed(x) && (lower(x.frame.from) === f || (x.frame.to && lower(x.frame.to) === f)))
      .sort((a, b) => b.block - a.block || b.txIndex - a.txIndex || b.index - a.index)
      .map((x) => `${x.tx}:${x.index}:${BigInt(x.frame.value ?? 0)}`);
    expect(expected.length).toBeGreaterThan(50);
    const items = await walk(
      `/api/v2/addresses/${f}/internal-transactions`,
      InternalTransactionsResponseSchema,
    );
    expect(items.map((i) => `${i.transaction_hash}:${i.index}:${i.value}`)).toEqual(expected);
    const from = await walk(
      `/api/v2/addresses/${f}/internal-transactions?filter=from`,
      InternalTransactionsResponseSchema,
    );
    expect(from.every((i) => lower(i.from.hash) === f)).toBe(true);
    // Everything but the forwarder's own creation (a top-level create: listed, and not from it).
    expect(from.length).toBe(expected.length - 1);
    const both = await get(`/api/v2/addresses/${f}/internal-transactions?filter=`);
    expect(both.body.items.map((i: any) => `${i.transaction_hash}:${i.index}:${i.value}`)).toEqual(
      expected.slice(0, 50),
    );
    const to = await walk(
      `/api/v2/addresses/${f}/internal-transactions?filter=to`,
      InternalTransactionsResponseSchema,
    );
    expect(to).toEqual([]);
  });

  it("address logs page to the end, newest first, equal to the node's", async () => {
    const expected = receipts
      .flatMap((r) => r.logs)
      .filter((l) => lower(l.address) === lower(k.token))
      .map((l) => `${l.transactionHash}:${num(l.logIndex)}`)
      .reverse();
    expect(expected.length).toBeGreaterThan(50);
    const items = await walk(`/api/v2/addresses/${k.token}/logs`, LogsResponseAddressSchema);
    expect(items.map((i) => `${i.transaction_hash}:${i.index}`)).toEqual(expected);
    expect(items.every((i) => i.decoded?.method_call.startsWith("Transfer("))).toBe(true);
  });

  it("counters and tab counters come from the index and equal the node's counts (tabs capped at 51)", async () => {
    const mine = receipts.filter(
      (r) =>
        lower(r.from) === a0 ||
        (r.to && lower(r.to) === a0) ||
        (r.contractAddress && lower(r.contractAddress) === a0),
    );
    const gas = receipts.filter((r) => lower(r.from) === a0).reduce((s, r) => s + BigInt(r.gasUsed), 0n);
    const transfers = allTransferLogs().filter(
      (l) => topicAddress(l.topics[1]!) === a0 || topicAddress(l.topics[2]!) === a0,
    ).length;
    const c = await get(`/api/v2/addresses/${a0}/counters`, AddressCountersSchema);
    expect(c.body).toMatchObject({
      transactions_count: String(mine.length),
      gas_usage_count: gas.toString(),
      token_transfers_count: String(transfers),
    });
    const tabs = await get(`/api/v2/addresses/${a0}/tabs-counters`, AddressTabsCountersSchema);
    expect(tabs.body).toMatchObject({
      transactions_count: Math.min(51, mine.length),
      token_transfers_count: Math.min(51, transfers),
      token_balances_count: 2,
      withdrawals_count: 0,
    });
    const tokenTabs = await get(`/api/v2/addresses/${k.token}/tabs-counters`, AddressTabsCountersSchema);
    expect(tokenTabs.body.logs_count).toBe(51);
    const unknown = await get(`/api/v2/addresses/0x${"12".repeat(20)}/counters`, AddressCountersSchema);
    expect(unknown.body).toEqual({
      transactions_count: "0",
      token_transfers_count: "0",
      gas_usage_count: "0",
      validations_count: "0",
    });
  });

  it("tokens and token balances hold the node's balances", async () => {
    const c = activityContracts();
    const holders = [...new Set(transferLogs().map((l) => topicAddress(l.topics[2]!)))];
    for (const h of holders.slice(0, 4)) {
      const balance = BigInt(
        await rpc<Hex>(url, "eth_call", [
          {
            to: k.token,
            data: encodeFunctionData({
              abi: c.SimpleToken!.abi,
              functionName: "balanceOf",
              args: [h as Address],
            }),
          },
          "latest",
        ]),
      );
      const r = await get(`/api/v2/addresses/${h}/tokens?type=ERC-20`, AddressTokensResponseSchema);
      const b = await get(`/api/v2/addresses/${h}/token-balances`, TokenBalancesSchema);
      const expected = balance > 0n ? [{ token_id: null, value: balance.toString() }] : [];
      expect(r.body.items.map((i: any) => ({ token_id: i.token_id, value: i.value }))).toEqual(expected);
      const erc20 = b.body.filter((i: any) => i.token.type === "ERC-20");
      expect(erc20.map((i: any) => ({ token_id: i.token_id, value: i.value }))).toEqual(expected);
    }
    const nfts = await get(`/api/v2/addresses/${a0}/tokens?type=ERC-721`, AddressTokensResponseSchema);
    expect(nfts.body.items).toMatchObject([
      { token: { address_hash: getAddress(nft), type: "ERC-721" }, token_id: null, value: "3" },
    ]);
    const all = await get(`/api/v2/addresses/${a0}/token-balances`, TokenBalancesSchema);
    expect(all.body.map((i: any) => i.token.type).sort()).toEqual(["ERC-20", "ERC-721"]);
  });

  it("the address object has the creation, token and has_* facts", async () => {
    const deploy = receipts.find((r) => r.contractAddress && lower(r.contractAddress) === lower(k.token))!;
    const tok = await get(`/api/v2/addresses/${k.token}`, AddressSchema);
    expect(tok.body).toMatchObject({
      creator_address_hash: getAddress(a0),
      creation_transaction_hash: deploy.transactionHash,
      has_logs: true,
      // Blockscout counts transfers from or to the address, not of the token it is.
      has_token_transfers: false,
      is_contract: true,
      is_verified: true,
      token: { address_hash: getAddress(k.token), type: "ERC-20" },
    });
    const me = await get(`/api/v2/addresses/${a0}`, AddressSchema);
    expect(me.body).toMatchObject({
      has_tokens: true,
      has_token_transfers: true,
      is_contract: false,
      token: null,
    });
  });

  it("withdrawals: anvil pays none, so the lists are empty; an unknown block is a 404", async () => {
    expect((await get("/api/v2/blocks/1/withdrawals", BlockWithdrawalsResponseSchema)).body).toEqual({
      items: [],
      next_page_params: null,
    });
    expect((await get(`/api/v2/addresses/${a0}/withdrawals`, AddressWithdrawalsResponseSchema)).body).toEqual(
      {
        items: [],
        next_page_params: null,
      },
    );
    expect((await get("/api/v2/blocks/999999/withdrawals")).status).toBe(404);
  });

  it("top accounts: every indexed address with a balance, richest first, with the node's balance and tx count", async () => {
    const [row] = await t.db.query<{ head: string }>("select max(number)::text as head from blocks");
    const head = row!.head;
    const known = await t.db.query<{ a: string }>(
      "select '0x' || encode(address, 'hex') as a from addresses",
    );
    const balances = await rpcBatch<Hex>(
      url,
      known.map((r) => ({ method: "eth_getBalance", params: [r.a, `0x${BigInt(head).toString(16)}`] })),
    );
    const expected = known
      .map((r, i) => ({ hash: r.a, balance: BigInt(balances[i]!) }))
      .filter((x) => x.balance > 0n)
      .sort((x, y) =>
        x.balance === y.balance ? (x.hash < y.hash ? -1 : 1) : x.balance > y.balance ? -1 : 1,
      );
    const items = await walk("/api/v2/addresses/", TopAccountsResponseSchema);
    expect(items.map((i) => [lower(i.hash), i.coin_balance])).toEqual(
      expected.map((x) => [x.hash, x.balance.toString()]),
    );
    // The home page counts every address the list can show: the node's funded accounts are seen at genesis,
    // where their balances are recorded, before any transaction of theirs.
    const stats = await get("/api/v2/stats");
    expect(Number(stats.body.total_addresses)).toBe(known.length);
    const funded = (await rpc<Address[]>(url, "eth_accounts")).map(lower);
    const seen = await t.db.query<{ a: string; first: string }>(
      "select '0x' || encode(address, 'hex') as a, first_block::text as first from addresses where address = any($1::bytea[])",
      [funded.map((a) => Buffer.from(a.slice(2), "hex"))],
    );
    expect(seen.map((r) => [r.a, r.first]).sort()).toEqual(funded.map((a) => [a, "0"]).sort());
    const sent = receipts.filter((r) => lower(r.from) === a0 || lower(r.to ?? "") === a0).length;
    expect(items.find((i) => lower(i.hash) === a0)?.transactions_count).toBe(String(sent));
    // A cursor resumes after the given (balance, hash).
    const first = items[0]!;
    const next = await get(
      `/api/v2/addresses?fetched_coin_balance=${first.coin_balance}&hash=${first.hash}&items_count=50`,
    );
    expect(next.body.items[0]?.hash).toBe(items[1]?.hash);
    expect((await get("/api/v2/addresses?fetched_coin_balance=abc&hash=0x1")).status).toBe(422);
  });

  it("chain-wide token transfers and internal transactions page to the end, newest first, equal to the node's", async () => {
    const key = (l: RpcLog) => `${num(l.blockNumber)}:${num(l.logIndex)}`;
    const keys = (items: any[]) => items.map((i) => `${i.block_number}:${i.log_index}`);
    const all = await walk("/api/v2/token-transfers", TokenTransferResponseSchema);
    expect(allTransferLogs().length).toBeGreaterThan(50);
    expect(keys(all)).toEqual(allTransferLogs().map(key).reverse());
    expect(await walk("/api/v2/token-transfers?type=", TokenTransferResponseSchema)).toEqual(all);
    const nfts = await walk("/api/v2/token-transfers?type=ERC-721", TokenTransferResponseSchema);
    expect(keys(nfts)).toEqual(
      allTransferLogs()
        .filter((l) => lower(l.address) === nft)
        .map(key)
        .reverse(),
    );

    const expected = frames
      .filter(listed)
      .sort((a, b) => b.block - a.block || b.txIndex - a.txIndex || b.index - a.index)
      .map((x) => `${x.tx}:${x.index}:${x.frame.type.toLowerCase()}`);
    expect(expected.length).toBeGreaterThan(50);
    const internal = await walk("/api/v2/internal-transactions", InternalTransactionsResponseSchema);
    expect(internal.map((i) => `${i.transaction_hash}:${i.index}:${i.type}`)).toEqual(expected);
  });

  it("a token's and a token instance's transfers are the node's Transfer logs of it; an unknown token is a 404", async () => {
    const keys = (items: any[]) => items.map((i) => `${i.block_number}:${i.log_index}`);
    const of = (token: string, id?: bigint) =>
      allTransferLogs()
        .filter((l) => lower(l.address) === lower(token) && (id === undefined || BigInt(l.topics[3]!) === id))
        .map((l) => `${num(l.blockNumber)}:${num(l.logIndex)}`)
        .reverse();
    const erc20 = await walk(`/api/v2/tokens/${k.token}/transfers`, TokenTransferResponseSchema);
    expect(of(k.token).length).toBeGreaterThan(50);
    expect(keys(erc20)).toEqual(of(k.token));
    const nfts = await walk(`/api/v2/tokens/${nft}/transfers`, TokenTransferResponseSchema);
    expect(keys(nfts)).toEqual(of(nft));
    const eight = await get(`/api/v2/tokens/${nft}/instances/8/transfers`, TokenTransferResponseSchema);
    expect(keys(eight.body.items)).toEqual(of(nft, 8n));
    expect(eight.body.items[0]).toMatchObject({ type: "token_minting", total: { token_id: "8" } });
    expect((await get(`/api/v2/tokens/0x${"12".repeat(20)}/transfers`)).status).toBe(404);
    expect((await get(`/api/v2/tokens/${nft}/instances/x/transfers`)).status).toBe(422);
  });

  it("transaction stats: the node's transactions and fees of the last 24 hours; a window starts at its block", async () => {
    const fees = (rs: Receipt[]) => rs.map((r) => BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice));
    const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
    const all = fees(receipts);
    const r = await get("/api/v2/transactions/stats");
    expect(r.status).toBe(200);
    // Anvil mined every block just now: all of them are in the last 24 hours.
    expect(r.body).toEqual({
      pending_transactions_count: "0",
      transactions_count_24h: String(receipts.length),
      transaction_fees_sum_24h: sum(all).toString(),
      transaction_fees_avg_24h: ((sum(all) * 2n + BigInt(all.length)) / (2n * BigInt(all.length))).toString(),
    });
    // A window beginning at a block in the middle keeps that block's and later blocks' transactions only.
    const numbers = [...new Set(receipts.map((x) => num(x.blockNumber)))];
    const stamps = await rpcBatch<{ timestamp: Hex }>(
      url,
      numbers.map((n) => ({ method: "eth_getBlockByNumber", params: [`0x${n.toString(16)}`, false] })),
    );
    const time = new Map(numbers.map((n, i) => [n, num(stamps[i]!.timestamp)]));
    const mid = numbers[Math.floor(numbers.length / 2)]!;
    const since = new Date(time.get(mid)! * 1000);
    const later = receipts.filter((x) => num(x.blockNumber) >= mid);
    // Anvil may give neighbouring blocks one second: the window starts at the first block of that second.
    const window = receipts.filter((x) => time.get(num(x.blockNumber))! >= time.get(mid)!);
    expect(window.length).toBeGreaterThanOrEqual(later.length);
    const day = await transactionsSince(t.db, since);
    expect(day.count).toBe(String(window.length));
    expect(day.fee_sum).toBe(sum(fees(window)).toString());
    expect(await transactionsSince(t.db, new Date(Date.now() + 3600_000))).toEqual({
      count: "0",
      fee_sum: "0",
      fee_avg: "0",
    });
  });

  it("bad input is a Blockscout 422; an unknown transaction a 404", async () => {
    for (const path of [
      "/api/v2/addresses/0x12/token-transfers",
      `/api/v2/addresses/${a0}/token-transfers?type=ERC-99`,
      `/api/v2/addresses/${a0}/token-transfers?filter=sideways`,
      `/api/v2/addresses/${a0}/internal-transactions?index=-1`,
      `/api/v2/addresses/${a0}/tokens?type=NFT`,
      `/api/v2/addresses/${a0}/logs?topic=0x12`,
      "/api/v2/transactions/0x1234/logs",
      "/api/v2/blocks/latest/withdrawals",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(422);
      expect(r.body.errors[0]).toMatchObject({
        title: "Invalid value",
        source: { pointer: expect.any(String) },
      });
    }
    expect((await get(`/api/v2/transactions/0x${"ab".repeat(32)}/internal-transactions`)).status).toBe(404);
  });

  it("every response matches the JSON schema written from the frontend's types; a missing field fails", () => {
    expect(checked.length).toBeGreaterThan(20);
    for (const c of checked) {
      const errors = [...Value.Errors(c.schema, c.body)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
      expect(errors, c.url).toEqual([]);
    }
    const page = checked.find(
      (c) => c.schema === TokenTransferResponseSchema && (c.body as any).items.length,
    )!;
    const broken = structuredClone(page.body) as any;
    delete broken.items[0].block_hash;
    expect(Value.Check(TokenTransferResponseSchema, broken)).toBe(false);
    const address = structuredClone(checked.find((c) => c.schema === AddressSchema)!.body) as any;
    delete address.has_logs;
    expect(Value.Check(AddressSchema, address)).toBe(false);
  });
});
