import type { Socket } from "phoenix";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { type LiveUpdates, startLiveUpdates } from "../../src/live/index.js";
import { startTokenWorkers, type TokenWorkers } from "../../src/token-workers/workers.js";
import { createLogger } from "../../src/util/logger.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { collect, join, phoenixSocket, serveSocket } from "../helpers/live.js";
import { deploy, invoke, read } from "../helpers/tokens.js";

// The socket events beyond blocks and address transactions, each checked against the explorer's own answer or the
// node: indexing status, token transfers and balances of an address, a token's transfers and total supply, and
// fetched token-instance metadata, all with the frontend's client.
describe("live updates: indexing status, token events, token-instance metadata", () => {
  let chain: TestChain;
  let db: TestDb;
  let live: LiveUpdates;
  let indexer: Indexer;
  let workers: TokenWorkers | undefined;
  let app: App;
  let base: string;
  let A: Address;
  let B: Address;
  let coin: Address;
  let inline: Address;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    chain = await startTestChain();
    const url = chain.anvil.url;
    [A, B] = chain.accounts.map((a) => a.address.toLowerCase() as Address) as [Address, Address];
    coin = await deploy(url, A, "TestCoin", [10n ** 24n]);
    inline = await deploy(url, A, "Test1155", ['data:application/json;utf8,{"name":"Inline {id}"}']);
    db = await createTestDb();
    live = startLiveUpdates({ db: db.db, databaseUrl: db.url, logger: createLogger("silent"), serve: true });
    indexer = await createTestIndexer(db.db, url, {
      extensions: [createTokensExtension(), live.extension({ head: () => indexer?.progress.head ?? null })],
    });
    await indexToHead(indexer, db.db, url);
    ({ app, base } = await serveSocket(db.db, live.hub));
  }, 60_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await workers?.stop();
    await app?.close();
    await live?.stop();
    await db?.drop();
    await chain?.stop();
  });

  const socket = () => {
    const s = phoenixSocket(base);
    sockets.push(s);
    return s;
  };
  const api = async (path: string) => (await fetch(`${base}/api/v2${path}`)).json() as Promise<any>;
  const indexNow = () => indexToHead(indexer, db.db, chain.anvil.url);

  it("sends index_status on blocks:indexing and blocks:indexing_internal_transactions", async () => {
    const s = socket();
    const blocks = collect(await join(s, "blocks:indexing"), "index_status");
    const internal = collect(await join(s, "blocks:indexing_internal_transactions"), "index_status");
    await rpc(chain.anvil.url, "evm_mine");
    await indexNow();
    expect(await blocks.next()).toEqual({ ratio: "1.00", finished: true });
    expect(await internal.next()).toEqual({ ratio: "1.00", finished: true });
  });

  it("sends an address its token transfers and updated token balances as the explorer lists them", async () => {
    const s = socket();
    const ch = await join(s, `addresses:${B}`);
    const transfers = collect(ch, "token_transfer");
    const balance = collect(ch, "token_balance");
    const erc20 = collect(ch, "updated_token_balances_erc_20");
    const tokenCh = await join(s, `tokens:${coin}`);
    const counts = collect(tokenCh, "token_transfer");
    await invoke(chain.anvil.url, A, coin, "TestCoin", "transfer", [B, 1234n]);
    await indexNow();
    const head = Number(await rpc<Hex>(chain.anvil.url, "eth_blockNumber"));

    const got = await transfers.next();
    const listed = await api(`/addresses/${B}/token-transfers`);
    expect(got.token_transfers).toHaveLength(1);
    expect(got.token_transfers[0]).toEqual(listed.items[0]);
    expect(got.token_transfers[0].total.value).toBe("1234");
    expect(await balance.next()).toEqual({ block_number: head });

    const updated = await erc20.next();
    const tokens = await api(`/addresses/${B}/tokens?type=ERC-20`);
    expect(updated.overflow).toBe(false);
    expect(updated.token_balances).toEqual(tokens.items);
    const onNode = BigInt((await read(chain.anvil.url, coin, "TestCoin", "balanceOf", [B]))!);
    expect(updated.token_balances[0].value).toBe(onNode.toString());

    expect(await counts.next()).toEqual({ token_transfer: 1 });
  });

  it("sends a token balance that falls to zero as value 0 (ERC-20, and an ERC-1155 id)", async () => {
    const C = chain.accounts[2]!.address.toLowerCase() as Address;
    const url = chain.anvil.url;
    await invoke(url, A, coin, "TestCoin", "transfer", [C, 77n]);
    await invoke(url, A, inline, "Test1155", "mint", [C, 7n, 2n]);
    await indexNow();
    const s = socket();
    const ch = await join(s, `addresses:${C}`);
    const erc20 = collect(ch, "updated_token_balances_erc_20");
    const erc1155 = collect(ch, "updated_token_balances_erc_1155");
    // C gives everything away: nothing held any more, on the node and in the explorer.
    await invoke(url, C, coin, "TestCoin", "transfer", [A, 77n]);
    await invoke(url, C, inline, "Test1155", "burn", [C, 7n, 2n]);
    await indexNow();
    expect(BigInt((await read(url, coin, "TestCoin", "balanceOf", [C]))!)).toBe(0n);
    expect((await api(`/addresses/${C}/tokens`)).items).toEqual([]);
    const fungible = await erc20.next();
    expect(fungible.overflow).toBe(false);
    expect(fungible.token_balances).toEqual([
      expect.objectContaining({
        token: expect.objectContaining({ type: "ERC-20" }),
        token_id: null,
        value: "0",
      }),
    ]);
    expect(fungible.token_balances[0].token.address_hash.toLowerCase()).toBe(coin);
    const multi = await erc1155.next();
    expect(multi.token_balances).toEqual([
      expect.objectContaining({
        token: expect.objectContaining({ type: "ERC-1155" }),
        token_id: "7",
        value: "0",
      }),
    ]);
  });

  it("sends a token's total supply and an instance's fetched metadata from the token workers", async () => {
    const s = socket();
    const supply = collect(await join(s, `tokens:${coin}`), "total_supply");
    const metadata = collect(await join(s, `token_instances:${inline}`), "fetched_token_instance_metadata");
    await invoke(chain.anvil.url, A, inline, "Test1155", "mint", [B, 255n, 1n]);
    await indexNow();
    workers = startTokenWorkers({
      db: db.db,
      rpc: createRpc({ url: chain.anvil.url, batchSize: 20, timeoutMs: 5000, retries: 1 }),
      config: {
        ipfsGatewayUrl: "https://ipfs.io/ipfs",
        arweaveGatewayUrl: "https://arweave.net",
        metadataAllowedHosts: [],
      },
      logger: createLogger("silent"),
      pollMs: 100,
      onChange: (change) => void live.publishTokenChange(change),
    });
    const onNode = BigInt((await read(chain.anvil.url, coin, "TestCoin", "totalSupply"))!);
    expect(await supply.next()).toEqual({ total_supply: onNode.toString() });

    const m = await metadata.next((p) => p.token_id === "255");
    const instance = await api(`/tokens/${inline}/instances/255`);
    expect(m.fetched_metadata).toEqual(instance.metadata);
    expect(m.fetched_metadata).toEqual({ name: `Inline ${(255).toString(16).padStart(64, "0")}` });
  });

  it("keeps a refetched instance's metadata for the page that joins token_instances only after its request", async () => {
    // The frontend's order (TokenInstanceMetadataFetcher): PATCH refetch-metadata, then join the channel. The
    // worker (still polling from the test above) refetches before anyone has joined.
    const patched = await fetch(`${base}/api/v2/tokens/${inline}/instances/255/refetch-metadata`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ recaptcha_response: "x" }),
    });
    expect(patched.status).toBe(200);
    const refetched = async () =>
      (
        await db.db.query<{ n: string }>(
          `select count(*)::text as n from token_instances
           where token_address = decode($1, 'hex') and token_id = 255 and retry_at is null and fetched_at is not null`,
          [inline.slice(2)],
        )
      )[0]?.n === "1";
    for (let i = 0; !(await refetched()); i++) {
      if (i > 400) throw new Error("the worker did not refetch instance 255");
      await new Promise((ok) => setTimeout(ok, 50));
    }
    await live.idle();
    const s = socket();
    const late = collect(await join(s, `token_instances:${inline}`), "fetched_token_instance_metadata");
    const m = await late.next((p) => p.token_id === "255", 5_000);
    expect(m.fetched_metadata).toEqual((await api(`/tokens/${inline}/instances/255`)).metadata);
  });
});
