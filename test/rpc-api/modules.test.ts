import { ethers } from "ethers";
import type { InjectOptions } from "fastify";
import { type Address, erc20Abi, type Hex, parseAbiItem } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc } from "../helpers/activity.js";
import { type RpcWorld, startRpcWorld } from "./setup.js";

type Tx = {
  hash: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  from: Address;
  to: Address | null;
  value: Hex;
  nonce: Hex;
  gas: Hex;
  input: Hex;
  transactionIndex: Hex;
};
type RpcLog = {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  logIndex: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
};
type Receipt = {
  status: Hex;
  contractAddress: Address | null;
  cumulativeGasUsed: Hex;
  gasUsed: Hex;
  effectiveGasPrice: Hex;
  logs: Array<{ address: Address; topics: Hex[]; data: Hex; logIndex: Hex }>;
};

const dec = (h: Hex | number | bigint) => BigInt(h).toString();

describe("Etherscan-compatible RPC modules against the node", () => {
  let w: RpcWorld;
  let head: number;
  const txs: Array<{ tx: Tx; receipt: Receipt; timestamp: number }> = [];
  const api = async (q: string) => {
    const r = await w.app.inject(`/api?${q}`);
    return { status: r.statusCode, body: r.json() };
  };

  beforeAll(async () => {
    w = await startRpcWorld();
    head = Number(await rpc<Hex>(w.url, "eth_blockNumber"));
    for (let n = 0; n <= head; n++) {
      const b = await rpc<{ timestamp: Hex; transactions: Tx[] }>(w.url, "eth_getBlockByNumber", [
        `0x${n.toString(16)}`,
        true,
      ]);
      for (const tx of b.transactions)
        txs.push({
          tx,
          receipt: await rpc<Receipt>(w.url, "eth_getTransactionReceipt", [tx.hash]),
          timestamp: Number(b.timestamp),
        });
    }
  }, 240_000);
  afterAll(async () => {
    await w?.stop();
  });

  const involving = (a: Address) =>
    txs.filter((t) => t.tx.from === a || t.tx.to === a || t.receipt.contractAddress === a);

  it("account balance and balancemulti equal eth_getBalance", async () => {
    const [A, B] = w.acct as [Address, Address];
    const one = await api(`module=account&action=balance&address=${B}`);
    expect(one.body).toEqual({
      status: "1",
      message: "OK",
      result: dec(await rpc<Hex>(w.url, "eth_getBalance", [B, "latest"])),
    });
    const unknown = "0x00000000000000000000000000000000000000aa";
    const multi = await api(`module=account&action=balancemulti&address=${w.acct.join(",")},${unknown}`);
    expect(multi.body.status).toBe("1");
    for (const a of [...w.acct, unknown]) {
      const item = multi.body.result.find((x: { account: string }) => x.account === a);
      expect(item, a).toEqual({
        account: a,
        balance: dec(await rpc<Hex>(w.url, "eth_getBalance", [a, "latest"])),
        stale: false,
      });
    }
    expect((await api("module=account&action=balance")).body).toEqual({
      status: "0",
      message: "Query parameter 'address' is required",
      result: null,
    });
    expect((await api(`module=account&action=balance&address=${A.slice(0, 10)}`)).body.message).toBe(
      "Invalid address hash",
    );
  });

  it("txlist items equal the node's transactions and receipts, paged and ranged", async () => {
    for (const a of [...w.acct, w.forwarder]) {
      const expected = involving(a).reverse(); // Blockscout's default order: newest first
      if (expected.length === 0) {
        const none = await api(`module=account&action=txlist&address=${a}`);
        expect(none.body, a).toEqual({ status: "0", message: "No transactions found", result: [] });
        continue;
      }
      const r = await api(`module=account&action=txlist&address=${a}`);
      expect(r.body.status, a).toBe("1");
      expect(
        r.body.result.map((x: { hash: string }) => x.hash),
        a,
      ).toEqual(expected.map((t) => t.tx.hash));
      for (const [i, item] of (r.body.result as Array<Record<string, string>>).entries()) {
        const { tx, receipt, timestamp } = expected[i]!;
        const ok = receipt.status === "0x1";
        expect(item).toEqual({
          blockNumber: dec(tx.blockNumber),
          timeStamp: String(timestamp),
          hash: tx.hash,
          nonce: dec(tx.nonce),
          blockHash: tx.blockHash,
          transactionIndex: dec(tx.transactionIndex),
          from: tx.from,
          to: tx.to ?? "",
          value: dec(tx.value),
          gas: dec(tx.gas),
          gasPrice: dec(receipt.effectiveGasPrice),
          isError: ok ? "0" : "1",
          txreceipt_status: ok ? "1" : "0",
          input: tx.input,
          contractAddress: receipt.contractAddress ?? "",
          cumulativeGasUsed: dec(receipt.cumulativeGasUsed),
          gasUsed: dec(receipt.gasUsed),
          confirmations: String(head - Number(tx.blockNumber)),
          methodId: tx.to && tx.input.length >= 10 ? tx.input.slice(0, 10) : "0x",
        });
      }
    }
    const A = w.acct[0]!;
    const all = involving(A);
    const asc = await api(`module=account&action=txlist&address=${A}&sort=asc&page=2&offset=3`);
    expect(asc.body.result.map((x: { hash: string }) => x.hash)).toEqual(
      all.slice(3, 6).map((t) => t.tx.hash),
    );
    const from = Number(all[2]!.tx.blockNumber);
    const to = Number(all[5]!.tx.blockNumber);
    const ranged = await api(
      `module=account&action=txlist&address=${A}&startblock=${from}&endblock=${to}&sort=asc`,
    );
    expect(ranged.body.result.map((x: { hash: string }) => x.hash)).toEqual(
      all
        .filter((t) => Number(t.tx.blockNumber) >= from && Number(t.tx.blockNumber) <= to)
        .map((t) => t.tx.hash),
    );
    const sent = await api(`module=account&action=txlist&address=${A}&filter_by=from`);
    expect(sent.body.result.length).toBe(all.filter((t) => t.tx.from === A).length);
    expect((await api(`module=account&action=txlist&address=${A}&page=3&offset=5000`)).body).toEqual({
      status: "0",
      message: "Result window is too large, PageNo x Offset size must be less than or equal to 10000",
      result: null,
    });
    expect(
      (await api("module=account&action=txlist&address=0x00000000000000000000000000000000000000aa")).body,
    ).toEqual({
      status: "0",
      message: "No transactions found",
      result: [],
    });
  });

  it("an unchanged Etherscan client (ethers 5 EtherscanProvider) reads balances and history", async () => {
    const address = await w.app.listen({ port: 0, host: "127.0.0.1" });
    class Lookout extends ethers.providers.EtherscanProvider {
      override getBaseUrl() {
        return address;
      }
    }
    const p = new Lookout({ name: "anvil", chainId: w.chain.anvil.chainId });
    const B = w.acct[1]!;
    expect((await p.getBalance(B)).toBigInt()).toBe(
      BigInt(await rpc<Hex>(w.url, "eth_getBalance", [B, "latest"])),
    );
    const history = await p.getHistory(B);
    const expected = involving(B); // the client asks sort=asc
    expect(history.map((h) => h.hash)).toEqual(expected.map((t) => t.tx.hash));
    for (const [i, h] of history.entries()) {
      const { tx, timestamp } = expected[i]!;
      expect(h.blockNumber).toBe(Number(tx.blockNumber));
      expect(h.from.toLowerCase()).toBe(tx.from);
      expect(h.value.toBigInt()).toBe(BigInt(tx.value));
      expect(h.nonce).toBe(Number(tx.nonce));
      expect(h.data).toBe(tx.input);
      expect(h.timestamp).toBe(timestamp);
    }
  });

  it("txlistinternal: the forwarded value, by address and by transaction", async () => {
    const D = w.acct[3]!;
    const byAddress = await api(`module=account&action=txlistinternal&address=${D}`);
    expect(byAddress.body.status).toBe("1");
    const [item] = byAddress.body.result;
    const t = txs.find((x) => x.tx.hash === w.forwardTx)!;
    expect(item).toMatchObject({
      blockNumber: dec(t.tx.blockNumber),
      timeStamp: String(t.timestamp),
      from: w.forwarder,
      to: D,
      value: "4096",
      transactionHash: w.forwardTx,
      type: "call",
      callType: "call",
      isError: "0",
      errCode: "",
    });
    const byTx = await api(`module=account&action=txlistinternal&txhash=${w.forwardTx}`);
    expect(byTx.body.result).toEqual([item]);
    const all = await api("module=account&action=txlistinternal");
    expect(all.body.result.map((x: { transactionHash: string }) => x.transactionHash)).toContain(w.forwardTx);
  });

  it("tokentx, tokennfttx, token1155tx equal the node's transfer logs", async () => {
    const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
    const client = w.chain.client;
    const B = w.acct[1]!;
    const coinLogs = await client.getLogs({ address: w.coin, event: transfer, fromBlock: 0n });
    const r = await api(`module=account&action=tokentx&address=${B}&sort=asc`);
    const mine = coinLogs.filter((l) => l.args.from?.toLowerCase() === B || l.args.to?.toLowerCase() === B);
    expect(r.body.result.map((x: { hash: string; value: string }) => [x.hash, x.value])).toEqual(
      mine.map((l) => [l.transactionHash, String(l.args.value)]),
    );
    const name = await client.readContract({ address: w.coin, abi: erc20Abi, functionName: "name" });
    const symbol = await client.readContract({ address: w.coin, abi: erc20Abi, functionName: "symbol" });
    const decimals = await client.readContract({ address: w.coin, abi: erc20Abi, functionName: "decimals" });
    const t = txs.find((x) => x.tx.hash === mine[0]!.transactionHash)!;
    expect(r.body.result[0]).toMatchObject({
      blockNumber: dec(t.tx.blockNumber),
      timeStamp: String(t.timestamp),
      contractAddress: w.coin,
      tokenName: name,
      tokenSymbol: symbol,
      tokenDecimal: String(decimals),
      gasUsed: dec(t.receipt.gasUsed),
      confirmations: String(head - Number(t.tx.blockNumber)),
    });
    const byToken = await api(`module=account&action=tokentx&contractaddress=${w.coin}&sort=asc`);
    expect(byToken.body.result.length).toBe(coinLogs.length);
    // A block range and a time window (the transfers are scanned without their blocks joined).
    const second = mine[1]!;
    const at = txs.find((x) => x.tx.hash === second.transactionHash)!;
    const ranged = await api(
      `module=account&action=tokentx&address=${B}&sort=asc&startblock=${second.blockNumber}&endblock=${second.blockNumber}&start_timestamp=${at.timestamp}&end_timestamp=${at.timestamp}`,
    );
    expect(ranged.status).toBe(200);
    expect(ranged.body.result.map((x: { hash: string }) => x.hash)).toEqual(
      mine.filter((l) => l.blockNumber === second.blockNumber).map((l) => l.transactionHash),
    );

    const nftEvent = parseAbiItem(
      "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
    );
    const nftLogs = await client.getLogs({ address: w.nft, event: nftEvent, fromBlock: 0n });
    const nfts = await api(`module=account&action=tokennfttx&contractaddress=${w.nft}&sort=asc`);
    expect(
      nfts.body.result.map((x: { tokenID: string; from: string; to: string }) => [x.tokenID, x.from, x.to]),
    ).toEqual(
      nftLogs.map((l) => [String(l.args.tokenId), l.args.from!.toLowerCase(), l.args.to!.toLowerCase()]),
    );

    const single = parseAbiItem(
      "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
    );
    const batch = parseAbiItem(
      "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
    );
    const expected: string[][] = [];
    for (const l of await client.getLogs({ address: w.multi, events: [single, batch], fromBlock: 0n })) {
      if (l.eventName === "TransferSingle") expected.push([String(l.args.id), String(l.args.value)]);
      else
        for (const [i, id] of l.args.ids!.entries()) expected.push([String(id), String(l.args.values![i])]);
    }
    const multi = await api(`module=account&action=token1155tx&address=${B}&sort=asc`);
    expect(
      multi.body.result.map((x: { tokenID: string; tokenValue: string }) => [x.tokenID, x.tokenValue]),
    ).toEqual(expected);
    expect((await api("module=account&action=tokentx")).body.message).toBe(
      "Query parameter address or contractaddress is required",
    );
  });

  it("token404tx: the ERC-404's fungible and NFT transfers as the node logged them; token7984tx: none indexed", async () => {
    const client = w.chain.client;
    const B = w.acct[1]!;
    const fungible = parseAbiItem(
      "event ERC20Transfer(address indexed from, address indexed to, uint256 amount)",
    );
    const nft = parseAbiItem(
      "event ERC721Transfer(address indexed from, address indexed to, uint256 indexed id)",
    );
    const logs = await client.getLogs({ address: w.hybrid, events: [fungible, nft], fromBlock: 0n });
    const expected = logs.map((l) =>
      l.eventName === "ERC20Transfer"
        ? { tokenID: "", value: String(l.args.amount) }
        : { tokenID: String(l.args.id), value: "" },
    );
    expect(expected).toHaveLength(4);
    for (const q of [
      `address=${B}`,
      `contractaddress=${w.hybrid}`,
      `address=${B}&contractaddress=${w.hybrid}`,
    ]) {
      const r = await api(`module=account&action=token404tx&${q}&sort=asc`);
      expect(r.body.status, q).toBe("1");
      expect(
        r.body.result.map((x: { tokenID: string; value: string }) => ({
          tokenID: x.tokenID,
          value: x.value,
        })),
      ).toEqual(expected);
      for (const x of r.body.result) {
        expect(x).toMatchObject({ contractAddress: w.hybrid, to: B, tokenDecimal: "18", tokenSymbol: "THY" });
        expect(x).not.toHaveProperty("tokenValue");
      }
    }
    // Only ERC-404 transfers: the ERC-20 of B is not among them, and tokentx does not list the ERC-404's.
    const coinOnly = await api(`module=account&action=tokentx&address=${B}&sort=asc`);
    expect(coinOnly.body.result.every((x: { contractAddress: string }) => x.contractAddress === w.coin)).toBe(
      true,
    );
    expect(await api(`module=account&action=token7984tx&address=${B}`)).toEqual({
      status: 200,
      body: { status: "0", message: "No token transfers found", result: [] },
    });
  });

  it("Blockscout's /api/v1 aliases: ?module= (GET and POST), eth-rpc, search, gas-price-oracle, supply; the verifier's /api/v1 paths stay", async () => {
    const inject = async (o: InjectOptions) => {
      const r = await w.app.inject(o);
      return { status: r.statusCode, body: r.json() };
    };
    for (const q of [
      "module=block&action=eth_block_number",
      `module=account&action=balance&address=${w.acct[0]}`,
      `module=account&action=token404tx&address=${w.acct[1]}`,
      "module=nope&action=x",
    ])
      expect(await inject({ url: `/api/v1?${q}` }), q).toEqual(await api(q));
    expect(
      await inject({
        method: "POST",
        url: "/api/v1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: `module=account&action=balance&address=${w.acct[0]}`,
      }),
    ).toEqual(await api(`module=account&action=balance&address=${w.acct[0]}`));
    const call = { jsonrpc: "2.0", id: 7, method: "eth_blockNumber", params: [] };
    const v1 = await inject({ method: "POST", url: "/api/v1/eth-rpc", payload: call });
    expect(v1).toEqual(await inject({ method: "POST", url: "/api/eth-rpc", payload: call }));
    expect(v1.body.result).toBe(`0x${head.toString(16)}`);
    for (const q of [`q=${w.coin}`, "q=TestCoin", "q=0x12"])
      expect(await inject({ url: `/api/v1/search?${q}` }), q).toEqual(
        await inject({ url: `/api/v2/search?${q}` }),
      );
    const stats = (await inject({ url: "/api/v2/stats" })).body;
    const oracle = await inject({ url: "/api/v1/gas-price-oracle" });
    expect(oracle).toEqual({
      status: 200,
      body: {
        slow: stats.gas_prices.slow.price,
        average: stats.gas_prices.average.price,
        fast: stats.gas_prices.fast.price,
      },
    });
    expect(await inject({ url: "/api/v1/supply" })).toEqual({
      status: 200,
      body: { total_supply: 0, circulating_supply: null },
    });
    // The proxy verifier's own /api/v1 paths answer in its dialect, untouched by the aliases.
    const chains = await inject({ url: "/api/v1/chains" });
    expect(chains.status).not.toBe(404);
    expect(chains.body).not.toHaveProperty("status");
  });

  it("tokenbalance and tokenlist equal balanceOf", async () => {
    const client = w.chain.client;
    for (const a of w.acct) {
      const onChain = await client.readContract({
        address: w.coin,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [a],
      });
      const r = await api(`module=account&action=tokenbalance&contractaddress=${w.coin}&address=${a}`);
      expect(r.body, a).toEqual({ status: "1", message: "OK", result: String(onChain) });
    }
    const B = w.acct[1]!;
    const list = await api(`module=account&action=tokenlist&address=${B}`);
    const coin = list.body.result.find((x: { contractAddress: string }) => x.contractAddress === w.coin);
    expect(coin).toMatchObject({
      type: "ERC-20",
      balance: String(
        await client.readContract({ address: w.coin, abi: erc20Abi, functionName: "balanceOf", args: [B] }),
      ),
    });
    const nft = list.body.result.find((x: { contractAddress: string }) => x.contractAddress === w.nft);
    expect(nft).toMatchObject({ type: "ERC-721", balance: "1" });
    const ids = list.body.result.filter((x: { contractAddress: string }) => x.contractAddress === w.multi);
    expect(ids.map((x: { id: string; balance: string }) => [x.id, x.balance])).toEqual([
      ["1", "10"],
      ["2", "15"],
      ["3", "30"],
    ]);
    expect((await api("module=account&action=tokenbalance")).body.message).toMatch(
      /^Required query parameters missing: /,
    );
  });

  it("getminedblocks, listaccounts, pendingtxlist, eth_get_balance", async () => {
    const block = await rpc<{ miner: Address }>(w.url, "eth_getBlockByNumber", ["latest", false]);
    const mined = await api(`module=account&action=getminedblocks&address=${block.miner}&offset=3`);
    expect(mined.body.result.map((b: { blockNumber: string }) => b.blockNumber)).toEqual(
      [head, head - 1, head - 2].map(String),
    );
    const accounts = await api("module=account&action=listaccounts&offset=5");
    expect(accounts.body.result).toHaveLength(5);
    for (const a of accounts.body.result)
      expect(a.balance, a.address).toBe(dec(await rpc<Hex>(w.url, "eth_getBalance", [a.address, "latest"])));
    expect((await api(`module=account&action=pendingtxlist&address=${w.acct[0]}`)).body.message).toBe(
      "No transactions found",
    );
    const B = w.acct[1]!;
    const r = await w.app.inject(`/api?module=account&action=eth_get_balance&address=${B}&block=${head - 3}`);
    expect(r.json()).toEqual({
      jsonrpc: "2.0",
      result: await rpc<Hex>(w.url, "eth_getBalance", [B, `0x${(head - 3).toString(16)}`]),
      id: 0,
    });
  });

  it("logs getLogs with topic operators equals eth_getLogs", async () => {
    const all = await rpc<RpcLog[]>(w.url, "eth_getLogs", [
      { address: w.coin, fromBlock: "0x0", toBlock: "latest" },
    ]);
    const r = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&address=${w.coin}`);
    expect(r.body.result).toHaveLength(all.length);
    for (const [i, item] of (r.body.result as Array<Record<string, unknown>>).entries()) {
      const l = all[i]!;
      const t = txs.find((x) => x.tx.hash === l.transactionHash)!;
      expect(item).toEqual({
        address: l.address,
        topics: [...l.topics, null, null, null, null].slice(0, 4),
        data: l.data,
        blockNumber: l.blockNumber,
        timeStamp: `0x${t.timestamp.toString(16)}`,
        gasPrice: t.receipt.effectiveGasPrice,
        gasUsed: t.receipt.gasUsed,
        logIndex: l.logIndex,
        transactionHash: l.transactionHash,
        transactionIndex: l.transactionIndex,
      });
    }
    const [A, B, C] = w.acct.map((a) => `0x${a.slice(2).padStart(64, "0")}`) as [Hex, Hex, Hex];
    const topic0 = all[0]!.topics[0]!;
    const and = await api(
      `module=logs&action=getLogs&fromBlock=0&toBlock=${head}&topic0=${topic0}&topic1=${B}&topic0_1_opr=and`,
    );
    const expectedAnd = await rpc<RpcLog[]>(w.url, "eth_getLogs", [
      { fromBlock: "0x0", toBlock: "latest", topics: [topic0, B] },
    ]);
    expect(and.body.result.map((x: { transactionHash: string }) => x.transactionHash)).toEqual(
      expectedAnd.map((l) => l.transactionHash),
    );
    const or = await api(
      `module=logs&action=getLogs&fromBlock=0&toBlock=${head}&topic1=${A}&topic2=${C}&topic1_2_opr=or`,
    );
    const ors = [
      ...(await rpc<RpcLog[]>(w.url, "eth_getLogs", [
        { fromBlock: "0x0", toBlock: "latest", topics: [null, A] },
      ])),
      ...(await rpc<RpcLog[]>(w.url, "eth_getLogs", [
        { fromBlock: "0x0", toBlock: "latest", topics: [null, null, C] },
      ])),
    ].sort(
      (x, y) => Number(x.blockNumber) - Number(y.blockNumber) || Number(x.logIndex) - Number(y.logIndex),
    );
    const key = (l: { blockNumber: string; logIndex: string }) =>
      `${Number(l.blockNumber)}:${Number(l.logIndex)}`;
    expect(or.body.result.map(key)).toEqual([...new Set(ors.map(key))]);
    expect(
      (await api(`module=logs&action=getLogs&fromBlock=0&toBlock=1&topic0=${topic0}&topic1=${B}`)).body
        .message,
    ).toBe("Required query parameters missing: topic0_1_opr");
    expect((await api("module=logs&action=getLogs")).body.message).toBe(
      "Required query parameters missing: fromBlock, toBlock, address and/or topic{x}",
    );
  });

  it("block module against the node", async () => {
    const b = await rpc<{ miner: Address; timestamp: Hex }>(w.url, "eth_getBlockByNumber", ["0x3", false]);
    const reward = await api("module=block&action=getblockreward&blockno=3");
    expect(reward.body.result).toMatchObject({
      blockNumber: "3",
      timeStamp: Number(b.timestamp),
      blockMiner: b.miner.toLowerCase(),
    });
    const byTime = await api(
      `module=block&action=getblocknobytime&timestamp=${Number(b.timestamp)}&closest=before`,
    );
    const blocks = [];
    for (let n = 0; n <= head; n++)
      blocks.push(
        Number(
          (await rpc<{ timestamp: Hex }>(w.url, "eth_getBlockByNumber", [`0x${n.toString(16)}`, false]))
            .timestamp,
        ),
      );
    const last = blocks.findLastIndex((t) => t <= Number(b.timestamp));
    expect(byTime.body.result).toEqual({ blockNumber: String(last) });
    const countdown = await api(`module=block&action=getblockcountdown&blockno=${head + 10}`);
    expect(countdown.body.result).toMatchObject({
      CurrentBlock: String(head),
      CountdownBlock: String(head + 10),
      RemainingBlock: "10",
    });
    expect((await api(`module=block&action=getblockcountdown&blockno=1`)).body.message).toBe(
      "Error! Block number already pass",
    );
    expect((await w.app.inject("/api?module=block&action=eth_block_number")).json()).toEqual({
      jsonrpc: "2.0",
      result: await rpc<Hex>(w.url, "eth_blockNumber"),
      id: 1,
    });
  });

  it("transaction module against the node", async () => {
    const t = txs.find((x) => x.receipt.logs.length > 0)!;
    const info = await api(`module=transaction&action=gettxinfo&txhash=${t.tx.hash}`);
    expect(info.body.result).toEqual({
      hash: t.tx.hash,
      timeStamp: String(t.timestamp),
      blockNumber: dec(t.tx.blockNumber),
      confirmations: String(head - Number(t.tx.blockNumber)),
      success: true,
      from: t.tx.from,
      to: t.tx.to ?? "",
      value: dec(t.tx.value),
      input: t.tx.input,
      gasLimit: dec(t.tx.gas),
      gasUsed: dec(t.receipt.gasUsed),
      gasPrice: dec(t.receipt.effectiveGasPrice),
      logs: t.receipt.logs.map((l) => ({
        address: l.address,
        topics: [...l.topics, null, null, null, null].slice(0, 4),
        data: l.data,
        index: dec(l.logIndex),
      })),
      revertReason: "",
      next_page_params: null,
    });
    expect(
      (await api(`module=transaction&action=gettxreceiptstatus&txhash=${t.tx.hash}`)).body.result,
    ).toEqual({ status: "1" });
    expect(
      (await api(`module=transaction&action=gettxreceiptstatus&txhash=${w.revertedTx}`)).body.result,
    ).toEqual({ status: "0" });
    // Blockscout's errDescription: the top call frame's error as the node's tracer wrote it.
    const frame = await rpc<{ error?: string }>(w.url, "debug_traceTransaction", [
      w.revertedTx,
      { tracer: "callTracer" },
    ]);
    expect(frame.error).toBeTruthy();
    expect((await api(`module=transaction&action=getstatus&txhash=${w.revertedTx}`)).body.result).toEqual({
      isError: "1",
      errDescription: frame.error,
    });
    expect((await api(`module=transaction&action=getstatus&txhash=${t.tx.hash}`)).body.result).toEqual({
      isError: "0",
      errDescription: "",
    });
    expect((await api("module=transaction&action=gettxinfo&txhash=0x12")).body.message).toBe(
      "Invalid txhash format",
    );
  });

  it("token and stats modules against the node", async () => {
    const client = w.chain.client;
    const supply = await client.readContract({ address: w.coin, abi: erc20Abi, functionName: "totalSupply" });
    const token = await api(`module=token&action=getToken&contractaddress=${w.coin}`);
    expect(token.body.result).toEqual({
      type: "ERC-20",
      name: await client.readContract({ address: w.coin, abi: erc20Abi, functionName: "name" }),
      symbol: await client.readContract({ address: w.coin, abi: erc20Abi, functionName: "symbol" }),
      totalSupply: String(supply),
      decimals: "18",
      contractAddress: w.coin,
      cataloged: true,
    });
    const holders = await api(`module=token&action=getTokenHolders&contractaddress=${w.coin}`);
    for (const h of holders.body.result)
      expect(h.value).toBe(
        String(
          await client.readContract({
            address: w.coin,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [h.address],
          }),
        ),
      );
    expect(holders.body.result.length).toBe(3);
    expect((await api(`module=stats&action=tokensupply&contractaddress=${w.coin}`)).body.result).toBe(
      String(supply),
    );
    const rows = await w.db.db.query<{ address: Uint8Array }>("select address from address_coin_balances");
    let sum = 0n;
    for (const r of rows)
      sum += BigInt(
        await rpc<Hex>(w.url, "eth_getBalance", [`0x${Buffer.from(r.address).toString("hex")}`, "latest"]),
      );
    expect((await api("module=stats&action=ethsupply")).body.result).toBe(String(sum));
    // No market source: Blockscout's total_supply() is 0 without one.
    expect((await api("module=stats&action=ethsupplyexchange")).body).toEqual({
      status: "1",
      message: "OK",
      result: "0",
    });
    expect((await api("module=stats&action=ethprice")).body.result).toEqual({
      ethbtc: null,
      ethbtc_timestamp: null,
      ethusd: null,
      ethusd_timestamp: null,
    });
  });

  it("missing or unknown module and action: Blockscout's 400; unknown paths: 404", async () => {
    expect(await api("module=nope&action=txlist")).toEqual({
      status: 400,
      body: { status: "0", message: "Unknown module", result: null },
    });
    expect(await api("module=account&action=__proto__")).toEqual({
      status: 400,
      body: { status: "0", message: "Unknown action", result: null },
    });
    expect(await api("module=account")).toEqual({
      status: 400,
      body: { status: "0", message: "Params 'module' and 'action' are required parameters", result: null },
    });
    const r = await w.app.inject("/api/foo");
    expect(r.statusCode).toBe(404);
  });
});
