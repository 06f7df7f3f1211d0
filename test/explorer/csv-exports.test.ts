import { type Address, erc20Abi, getAddress, type Hex, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc } from "../helpers/activity.js";
import { type FilterWorld, type NodeItem, startFilterWorld } from "./filter-world.js";

/** A CSV body as rows of fields (RFC 4180: quoted fields may hold commas). */
function parseCsv(body: string): string[][] {
  const rows: string[][] = [];
  for (const line of body.split("\r\n")) {
    if (!line) continue;
    const fields: string[] = [];
    let cur = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cur += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ",") {
        fields.push(cur);
        cur = "";
      } else cur += ch;
    }
    fields.push(cur);
    rows.push(fields);
  }
  return rows;
}

const day = (t: number, d = 0) => new Date((t + d * 86_400) * 1000).toISOString().slice(0, 10);
const csvTime = (t: number) =>
  new Date(t * 1000)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, ".000000Z");

describe("CSV exports against the node", () => {
  let w: FilterWorld;
  let period: string;
  const csv = async (url: string) => {
    const r = await w.app.inject(url);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers["content-type"]).toBe("application/csv");
    expect(r.headers["content-disposition"]).toBe("attachment;");
    return parseCsv(r.body);
  };
  const txs = () => w.items.filter((i) => i.kind === 0);

  beforeAll(async () => {
    w = await startFilterWorld();
    const times = w.items.map((i) => i.timestamp);
    period = `from_period=${day(Math.min(...times), -1)}&to_period=${day(Math.max(...times), 1)}`;
  }, 300_000);
  afterAll(async () => {
    await w?.stop();
  });

  it("transactions: the address's transactions newest first, with Blockscout's columns", async () => {
    const B = w.accounts[1]!;
    const [header, ...rows] = await csv(`/api/v2/addresses/${B}/transactions/csv?${period}`);
    expect(header).toEqual([
      "TxHash",
      "BlockNumber",
      "UnixTimestamp",
      "FromAddress",
      "ToAddress",
      "ContractAddress",
      "Type",
      "Value",
      "Fee",
      "Status",
      "ErrCode",
      "CurrentPrice",
      "TxDateOpeningPrice",
      "TxDateClosingPrice",
      "MethodName",
    ]);
    const expected = txs().filter((t) => t.from === B || t.to === B || t.created === B);
    expect(rows.map((r) => r[0])).toEqual(expected.map((t) => t.hash));
    const hasCode = new Map<string, boolean>();
    for (const t of expected)
      if (t.to && !hasCode.has(t.to))
        hasCode.set(t.to, (await rpc<Hex>(w.url, "eth_getCode", [t.to, "latest"])) !== "0x");
    for (const [n, r] of rows.entries()) {
      const t = expected[n]!;
      expect(r[1]).toBe(String(t.block));
      expect(r[2]).toBe(csvTime(t.timestamp));
      expect(r[3]).toBe(getAddress(t.from));
      expect(r[4]).toBe(t.to ? getAddress(t.to) : "");
      expect(r[6]).toBe(t.from === B ? "OUT" : "IN");
      expect(r[7]).toBe(t.value);
      expect(r[8]).toBe(t.fee.toString());
      expect(r[9]).toBe(t.success ? "ok" : "error");
      // A call to a contract shows its selector (no verified ABI here); a plain transfer no method.
      const callsContract = t.input.length >= 10 && t.to !== null && hasCode.get(t.to);
      expect(r[14]).toBe(callsContract ? t.input.slice(0, 10) : "");
    }
    const from = await csv(
      `/api/v2/addresses/${B}/transactions/csv?${period}&filter_type=address&filter_value=from`,
    );
    expect(from.slice(1).map((r) => r[0])).toEqual(expected.filter((t) => t.from === B).map((t) => t.hash));
  });

  it("the period bounds the export by block time; an empty period has the header only", async () => {
    const A = w.accounts[0]!;
    const all = txs().filter((t) => t.from === A || t.to === A || t.created === A);
    const mid = all[Math.floor(all.length / 2)]!;
    const at = new Date(mid.timestamp * 1000).toISOString();
    const rows = await csv(`/api/v2/addresses/${A}/transactions/csv?from_period=${at}&to_period=${at}`);
    expect(rows.slice(1).map((r) => r[0])).toEqual(
      all.filter((t) => t.timestamp === mid.timestamp).map((t) => t.hash),
    );
    const none = await csv(
      `/api/v2/addresses/${A}/transactions/csv?from_period=2001-01-01&to_period=2001-01-02`,
    );
    expect(none).toHaveLength(1);
  });

  it("token transfers: oldest first, as sender, recipient or token contract", async () => {
    const B = w.accounts[1]!;
    const asc = (l: NodeItem[]) =>
      [...l].sort((a, b) => a.block - b.block || a.sub - b.sub || b.rev! - a.rev!);
    const transfers = w.items.filter((i) => i.kind === 1);
    const [header, ...rows] = await csv(`/api/v2/addresses/${B}/token-transfers/csv?${period}`);
    expect(header).toEqual([
      "TxHash",
      "BlockNumber",
      "UnixTimestamp",
      "FromAddress",
      "ToAddress",
      "TokenContractAddress",
      "Type",
      "TokenDecimals",
      "TokenSymbol",
      "TokensTransferred",
      "TransactionFee",
      "Status",
      "ErrCode",
    ]);
    const mine = asc(transfers.filter((t) => t.from === B || t.to === B));
    expect(rows.map((r) => [r[0], r[5]!.toLowerCase(), r[6], r[9]])).toEqual(
      mine.map((t) => [
        t.hash,
        t.token,
        t.from === B ? "OUT" : "IN",
        t.tokenType === "ERC-721" ? "" : t.amount,
      ]),
    );
    const symbol = await w.chain.client.readContract({
      address: w.coin,
      abi: erc20Abi,
      functionName: "symbol",
    });
    const ofCoin = await csv(`/api/v2/addresses/${w.coin}/token-transfers/csv?${period}`);
    const coinTransfers = asc(transfers.filter((t) => t.token === w.coin));
    expect(ofCoin.slice(1).map((r) => [r[0], r[6], r[7], r[8]])).toEqual(
      coinTransfers.map((t) => [t.hash, "", "18", symbol]),
    );
  });

  it("internal transactions and logs", async () => {
    const frames = w.items.filter((i) => i.kind === 2 && BigInt(i.value!) > 0n && i.to);
    const target = frames[0]!.to!;
    const [header, ...rows] = await csv(`/api/v2/addresses/${target}/internal-transactions/csv?${period}`);
    expect(header!.slice(0, 5)).toEqual(["TxHash", "Index", "BlockNumber", "TxIndex", "UnixTimestamp"]);
    const expected = w.items.filter(
      (i) => i.kind === 2 && (i.from === target || i.to === target || i.created === target),
    );
    expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[12]])).toEqual(
      expected.map((i) => [i.hash, String(i.sub), String(i.block), String(i.txIndex), i.value]),
    );
    for (const [n, r] of rows.entries()) expect(r[16]).toBe(expected[n]!.fee.toString());

    const logs = await rpc<
      Array<{ transactionHash: Hex; logIndex: Hex; blockNumber: Hex; data: Hex; topics: Hex[] }>
    >(w.url, "eth_getLogs", [{ address: w.coin, fromBlock: "0x0", toBlock: "latest" }]);
    const [lh, ...lrows] = await csv(`/api/v2/addresses/${w.coin}/logs/csv?${period}`);
    expect(lh).toEqual([
      "TxHash",
      "Index",
      "BlockNumber",
      "BlockHash",
      "ContractAddress",
      "Data",
      "FirstTopic",
      "SecondTopic",
      "ThirdTopic",
      "FourthTopic",
    ]);
    expect(lrows.map((r) => [r[0], r[1], r[2], r[5], r[6], r[7], r[8], r[9]])).toEqual(
      [...logs]
        .reverse()
        .map((l) => [
          l.transactionHash,
          String(Number(l.logIndex)),
          String(Number(l.blockNumber)),
          l.data,
          l.topics[0] ?? "",
          l.topics[1] ?? "",
          l.topics[2] ?? "",
          l.topics[3] ?? "",
        ]),
    );
  });

  it("token holders: balances in token units against balanceOf", async () => {
    const [header, ...rows] = await csv(`/api/v2/tokens/${w.coin}/holders/csv`);
    expect(header!).toEqual(["HolderAddress", "Balance"]);
    expect(rows.length).toBeGreaterThan(1);
    for (const [holder, balance] of rows) {
      const raw = await w.chain.client.readContract({
        address: w.coin,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [holder as Address],
      });
      const whole = raw / 10n ** 18n;
      const frac = (raw % 10n ** 18n).toString().padStart(18, "0").replace(/0+$/, "");
      expect(balance).toBe(`${whole}.${frac || "0"}`);
    }
    const ids = await csv(`/api/v2/tokens/${w.multi}/holders/csv`);
    // The sample ERC-1155 exposes its mapping: balanceOf(id, owner).
    const balanceOf = parseAbi(["function balanceOf(uint256, address) view returns (uint256)"]);
    const B = w.accounts[1]!;
    const mine = ids.slice(1).filter((r) => r[0]!.toLowerCase() === B);
    const onChain = await Promise.all(
      [2n, 3n, 4n].map((id) =>
        w.chain.client.readContract({
          address: w.multi,
          abi: balanceOf,
          functionName: "balanceOf",
          args: [id, B],
        }),
      ),
    );
    expect(mine.map((r) => r[1]).sort()).toEqual(onChain.map((v) => `${v}.0`).sort());
  });

  it("the frontend's /api/v1 paths answer the same CSV; errors and /config/csv-export", async () => {
    const B = w.accounts[1]!;
    const [from, to] = period.split("&").map((p) => p.split("=")[1]);
    const v2 = await w.app.inject(`/api/v2/addresses/${B}/token-transfers/csv?${period}`);
    const v1 = await w.app.inject(
      `/api/v1/token-transfers-csv?address_id=${B}&from_period=${from}&to_period=${to}&filter_type=address&filter_value=&recaptcha_response=x`,
    );
    expect(v1.statusCode).toBe(200);
    expect(v1.body).toBe(v2.body);
    const topic = w.items.find((i) => i.kind === 1 && i.token === w.coin)!;
    const logs = await csv(
      `/api/v1/logs-csv?address_id=${w.coin}&from_period=${from}&to_period=${to}&filter_type=topic&filter_value=0x${"0".repeat(24)}${topic.to!.slice(2)}`,
    );
    expect(logs.length).toBeGreaterThan(1);
    for (const r of logs.slice(1)) expect(r.slice(6).join(",")).toContain(topic.to!.slice(2));

    expect((await w.app.inject(`/api/v1/transactions-csv?address_id=${B}`)).statusCode).toBe(404);
    expect(
      (await w.app.inject(`/api/v1/transactions-csv?address_id=0x12&from_period=${from}&to_period=${to}`))
        .statusCode,
    ).toBe(422);
    const unknown = "0x00000000000000000000000000000000000000ab";
    const missing = await w.app.inject(`/api/v2/addresses/${unknown}/transactions/csv?${period}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: "Not found" });
    expect(
      (await w.app.inject(`/api/v2/addresses/${B}/transactions/csv?from_period=yesterday&to_period=${to}`))
        .statusCode,
    ).toBe(422);
    expect((await w.app.inject(`/api/v2/addresses/${B}/transactions/csv?to_period=${to}`)).statusCode).toBe(
      422,
    );
    expect((await w.app.inject(`/api/v2/tokens/${unknown}/holders/csv`)).statusCode).toBe(404);
    const config = await w.app.inject("/api/v2/config/csv-export");
    expect(config.json()).toEqual({ limit: 10000, async_enabled: false });
  });
});
