import { type Address, encodeDeployData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenWorkBesideIndexer } from "../../src/app/roles/token-work.js";
import { createRpc } from "../../src/chain/rpc.js";
import { loadConfig } from "../../src/config/config.js";
import { fromBytea, toBytea } from "../../src/db/bytes.js";
import { EventBus } from "../../src/events/bus.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { liveNotifyExtension } from "../../src/indexer/stages/live-notify.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { TOKEN_CALL_MAX_RESPONSE_BYTES } from "../../src/token-workers/rpc.js";
import { createLogger } from "../../src/util/logger.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { compileSolidity } from "../helpers/solc.js";
import { send } from "../helpers/tokens.js";

/** 6 MB of "A": its eth_call answer (hex in JSON) is about 12 MB, beyond the token calls' bound. */
const NAME_BYTES = 6_000_000;

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
/// An ERC-20 whose name() answers a huge string: what a hostile or broken token may do.
contract HugeName {
  event Transfer(address indexed from, address indexed to, uint256 value);
  mapping(address => uint256) public balanceOf;
  constructor() { balanceOf[msg.sender] = 1000; emit Transfer(address(0), msg.sender, 1000); }
  function transfer(address to, uint256 v) external returns (bool) {
    balanceOf[msg.sender] -= v; balanceOf[to] += v; emit Transfer(msg.sender, to, v); return true;
  }
  function symbol() external pure returns (string memory) { return "HUGE"; }
  function decimals() external pure returns (uint8) { return 18; }
  function totalSupply() external pure returns (uint256) { return 1000; }
  function name() external pure returns (string memory) {
    assembly {
      let n := ${NAME_BYTES}
      mstore(0, 0x20)
      mstore(0x20, n)
      let w := 0x4141414141414141414141414141414141414141414141414141414141414141
      for { let p := 0x40 } lt(p, add(0x40, n)) { p := add(p, 0x20) } { mstore(p, w) }
      return(0, add(0x40, n))
    }
  }
}`;

describe("token calls have their own client, apart from the indexer's", () => {
  let chain: TestChain;
  let t: TestDb;
  let indexer: Indexer | undefined;
  let stopTokens: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // A gas limit high enough for eth_call to build the 6 MB answer.
    chain = await startTestChain({ args: ["--gas-limit", "1000000000"] });
    t = await createTestDb();
  });
  afterAll(async () => {
    await stopTokens?.();
    await t?.drop();
    await chain?.stop();
  });

  it("a token whose name() answers megabytes: indexing goes on, only that call fails", async () => {
    const url = chain.anvil.url;
    const from = chain.accounts[0]!.address;
    const c = compileSolidity({ "HugeName.sol": SOURCE }).HugeName!;
    const hash = await send(url, { from, data: encodeDeployData({ abi: c.abi, bytecode: c.bytecode }) });
    const token = (
      await rpc<{ contractAddress: Address }>(url, "eth_getTransactionReceipt", [hash])
    ).contractAddress.toLowerCase() as Address;

    // The node does answer it, far beyond the bound.
    const raw = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_call",
        params: [{ to: token, data: "0x06fdde03" }, "latest"],
      }),
    }).then((r) => r.text());
    expect(raw.length).toBeGreaterThan(TOKEN_CALL_MAX_RESPONSE_BYTES);

    // Wired as the indexing roles wire it: the workers start with the first committed batch, on their own client.
    const config = loadConfig({});
    const bus = new EventBus();
    const indexerRpc = createRpc({ url, batchSize: 100, timeoutMs: 10_000, retries: 3 });
    const workers = startTokenWorkBesideIndexer({
      config,
      db: t.db,
      logger: createLogger("silent"),
      bus,
      rpc: indexerRpc,
      indexing: () => true,
    });
    stopTokens = () => workers.stop();
    indexer = await createTestIndexer(t.db, url, {
      extensions: [createTokensExtension(), liveNotifyExtension(bus, { notify: false })],
    });
    await indexToHead(indexer, t.db, url);

    // The properties fetcher runs in the background: wait until it has handled the token.
    const row = async () =>
      (
        await t.db.query<{
          name: string | null;
          symbol: string | null;
          decimals: string | null;
          fetched: boolean;
        }>(
          "select name, symbol, decimals::text, properties_fetched_at is not null as fetched from tokens where address = $1",
          [toBytea(token)],
        )
      )[0];
    const deadline = Date.now() + 60_000;
    while (!(await row())?.fetched) {
      if (Date.now() > deadline) throw new Error("token properties never fetched");
      // Indexing goes on meanwhile: more transfers, more blocks.
      await send(url, {
        from,
        to: token,
        data: `0xa9059cbb${"0".repeat(24)}${"00".repeat(19)}01${(1).toString(16).padStart(64, "0")}`,
      });
      await indexToHead(indexer, t.db, url);
    }
    const r = (await row())!;
    // The oversized answer failed its own call; the token's other calls, on requests of their own, succeeded.
    expect(r.name).toBeNull();
    expect(r.symbol).toBe("HUGE");
    expect(r.decimals).toBe("18");

    // And the indexer is at the head with every block, the token's transfers included.
    await send(url, {
      from,
      to: token,
      data: `0xa9059cbb${"00".repeat(12)}${"00".repeat(19)}02${"00".repeat(31)}01`,
    });
    await indexToHead(indexer, t.db, url);
    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    const [{ n }] = (await t.db.query<{ n: number }>("select count(*)::int as n from blocks")) as [
      { n: number },
    ];
    expect(n).toBe(head + 1);
    const transfers = await t.db.query<{ token: Uint8Array }>(
      "select token_address as token from token_transfers where token_address = $1",
      [toBytea(token)],
    );
    expect(transfers.length).toBeGreaterThanOrEqual(2);
    expect(fromBytea(transfers[0]!.token)).toBe(token);
  });
});
