import { Value } from "@sinclair/typebox/value";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AdvancedFilterMethodsSchema,
  AdvancedFilterResponseSchema,
} from "../../src/explorer/advanced-filter/schema.js";
import { type FilterWorld, type NodeItem, startFilterWorld } from "./filter-world.js";

type Item = {
  hash: string;
  type: string;
  status: string;
  method: string | null;
  from: { hash: string };
  to: { hash: string } | null;
  created_contract: { hash: string } | null;
  value: string | null;
  fee: string | null;
  token: { address_hash: string } | null;
  total: { value?: string | null; token_id?: string | null } | null;
  timestamp: string;
  block_number: number;
  transaction_index: number;
  internal_transaction_index: number | null;
  token_transfer_index: number | null;
  token_transfer_batch_index: number | null;
};
type Body = {
  items: Item[];
  search_params: { methods: Record<string, string>; tokens: Record<string, { symbol: string }> };
  next_page_params: Record<string, number | null> | null;
};

/** An item as the node tells it, in the fields both sides have. */
const nodeKey = (i: NodeItem) =>
  [
    i.kind,
    i.hash,
    i.block,
    i.txIndex,
    i.kind === 2 ? i.sub : null,
    i.kind === 1 ? i.sub : null,
    i.rev,
    i.from,
    i.to,
    i.created,
    i.value,
    i.kind === 1 ? i.token : null,
    i.tokenId,
  ].join("|");

const apiKey = (i: Item) =>
  [
    i.internal_transaction_index !== null ? 2 : i.token_transfer_index !== null ? 1 : 0,
    i.hash,
    i.block_number,
    i.transaction_index,
    i.internal_transaction_index,
    i.token_transfer_index,
    i.token_transfer_batch_index,
    i.from.hash.toLowerCase(),
    i.to?.hash.toLowerCase() ?? null,
    i.created_contract?.hash.toLowerCase() ?? null,
    i.value,
    i.token?.address_hash.toLowerCase() ?? null,
    i.total?.token_id ?? null,
  ].join("|");

const query = (o: Record<string, string | number | null>) =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");

describe("/api/v2/advanced-filters against the node", () => {
  let w: FilterWorld;
  const get = async (q: string) => {
    const r = await w.app.inject(`/api/v2/advanced-filters?${q}`);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as Body;
    expect(Value.Errors(AdvancedFilterResponseSchema, body).First()).toBeUndefined();
    return body;
  };
  /** Every page of a filter, following next_page_params as the frontend does. */
  const walk = async (filters: Record<string, string>) => {
    const out: Item[] = [];
    let next: Record<string, number | null> | null = null;
    let pages = 0;
    do {
      const body = await get(query({ ...filters, ...(next ?? {}) }));
      out.push(...body.items);
      next = body.next_page_params;
      if (next) expect(body.items.length).toBe(50);
      pages++;
    } while (next && pages < 50);
    return out;
  };
  const expectFilter = async (filters: Record<string, string>, keep: (i: NodeItem) => boolean) => {
    const expected = w.items.filter(keep).map(nodeKey);
    expect(expected.length).toBeGreaterThan(0);
    expect((await walk(filters)).map(apiKey)).toEqual(expected);
  };

  beforeAll(async () => {
    w = await startFilterWorld();
  }, 300_000);
  afterAll(async () => {
    await w?.stop();
  });

  it("lists every transaction, transfer and frame in Blockscout's order, page after page", async () => {
    expect(w.items.length).toBeGreaterThan(100);
    const all = await walk({});
    expect(all.map(apiKey)).toEqual(w.items.map(nodeKey));
    // Values against the node: status, fee (0 for a transaction's later items but frames), type, timestamps.
    let previous: string | null = null;
    for (const [n, item] of all.entries()) {
      const node = w.items[n]!;
      expect(item.status).toBe(node.success ? "success" : item.status);
      if (!node.success) expect(item.status).not.toBe("success");
      const repeat = previous === node.hash && node.kind !== 2;
      expect(item.fee).toBe(repeat && n % 50 !== 0 ? "0" : node.fee.toString());
      previous = node.hash;
      expect(item.timestamp).toBe(new Date(node.timestamp * 1000).toISOString().replace(".000Z", ".000000Z"));
      if (node.kind === 1) {
        expect(item.type).toBe(node.tokenType);
        expect(item.total?.value ?? null).toBe(node.tokenType === "ERC-721" ? null : node.amount);
      } else if (node.to === null) expect(item.type).toBe("contract_creation");
      else expect(["contract_interaction", "coin_transfer"]).toContain(item.type);
    }
  });

  it("a cursor at any item continues with the next one", async () => {
    const items = await walk({});
    const all = items.map(apiKey);
    for (let n = 0; n < w.items.length - 1; n += 3) {
      const at = items[n]!;
      const body = await get(
        query({
          block_number: at.block_number,
          transaction_index: at.transaction_index,
          internal_transaction_index: at.internal_transaction_index,
          token_transfer_index: at.token_transfer_index,
          token_transfer_batch_index: at.token_transfer_batch_index,
          items_count: 50,
        }),
      );
      expect(body.items.slice(0, 5).map(apiKey)).toEqual(all.slice(n + 1, n + 6));
    }
  });

  it("type filters: coin transfers, creations, token standards", async () => {
    await expectFilter({ transaction_types: "coin_transfer" }, (i) => i.kind !== 1 && BigInt(i.value!) > 0n);
    await expectFilter({ transaction_types: "CONTRACT_CREATION" }, (i) => i.kind !== 1 && i.to === null);
    await expectFilter({ transaction_types: "ERC-20" }, (i) => i.tokenType === "ERC-20");
    await expectFilter({ transaction_types: "ERC-721,ERC-1155" }, (i) =>
      ["ERC-721", "ERC-1155"].includes(i.tokenType ?? ""),
    );
    await expectFilter(
      { transaction_types: "ERC-1155,coin_transfer,bogus" },
      (i) => i.tokenType === "ERC-1155" || (i.kind !== 1 && BigInt(i.value!) > 0n),
    );
  });

  it("methods, by selector and by name, with the names in search_params", async () => {
    const transfer = "0xa9059cbb";
    const bySelector = (i: NodeItem) => i.input.slice(0, 10) === transfer;
    await expectFilter({ methods: transfer }, bySelector);
    await expectFilter({ methods_names: "transfer" }, bySelector);
    const body = await get(query({ methods: `${transfer},0xdeadbeef,not-a-selector` }));
    expect(body.search_params.methods).toEqual({ [transfer]: "transfer" });
  });

  it("addresses: include, exclude, and/or", async () => {
    const [A, B, C] = w.accounts as [Address, Address, Address];
    await expectFilter({ from_address_hashes_to_include: B }, (i) => i.from === B);
    await expectFilter({ to_address_hashes_to_include: `${C},${B}` }, (i) => i.to === C || i.to === B);
    await expectFilter(
      { from_address_hashes_to_include: A, to_address_hashes_to_include: B, address_relation: "and" },
      (i) => i.from === A && i.to === B,
    );
    await expectFilter(
      { from_address_hashes_to_include: A, to_address_hashes_to_include: B, address_relation: "or" },
      (i) => i.from === A || i.to === B,
    );
    await expectFilter(
      { from_address_hashes_to_include: A, to_address_hashes_to_exclude: B, address_relation: "and" },
      (i) => i.from === A && i.to !== null && i.to !== B,
    );
    await expectFilter({ from_address_hashes_to_exclude: `${A},${B}` }, (i) => i.from !== A && i.from !== B);
    await expectFilter(
      { from_address_hashes_to_exclude: A, to_address_hashes_to_exclude: B, address_relation: "or" },
      (i) => i.from !== A || (i.to !== null && i.to !== B),
    );
    // The include list less the exclude list.
    await expectFilter(
      { from_address_hashes_to_include: `${A},${B}`, from_address_hashes_to_exclude: A },
      (i) => i.from === B,
    );
  });

  it("amounts in ether or token units, age by block time, token contracts with native", async () => {
    const ether = (i: NodeItem) => Number(BigInt(i.value ?? "0")) / 1e18;
    await expectFilter({ amount_from: "0.1" }, (i) =>
      i.kind === 1 ? Number(BigInt(i.amount!)) / 10 ** (i.token === w.coin ? 18 : 0) >= 0.1 : ether(i) >= 0.1,
    );
    await expectFilter(
      { amount_from: "0", amount_to: "0.000001", transaction_types: "coin_transfer" },
      (i) => (i.kind !== 1 ? BigInt(i.value!) > 0n && ether(i) <= 0.000001 : false),
    );
    // `to` not positive, or from >= to: nothing (as Blockscout).
    expect((await get(query({ amount_to: "0" }))).items).toEqual([]);
    expect((await get(query({ amount_from: "2", amount_to: "1" }))).items).toEqual([]);

    const mid = w.items[Math.floor(w.items.length / 2)]!;
    const from = new Date(mid.timestamp * 1000).toISOString();
    await expectFilter({ age_from: from }, (i) => i.timestamp >= mid.timestamp);
    await expectFilter({ age_to: from }, (i) => i.timestamp <= mid.timestamp);

    await expectFilter({ token_contract_address_hashes_to_include: w.coin }, (i) => i.token === w.coin);
    await expectFilter(
      { token_contract_address_hashes_to_include: `native,${w.nft}` },
      (i) => i.kind !== 1 || i.token === w.nft,
    );
    await expectFilter(
      { token_contract_address_hashes_to_exclude: `native,${w.coin}` },
      (i) => i.kind === 1 && i.token !== w.coin,
    );
    const body = await get(query({ token_contract_address_hashes_to_include: `${w.coin},native` }));
    expect(Object.keys(body.search_params.tokens)).toEqual([w.coin]);
    expect(body.search_params.tokens[w.coin]!.symbol).toBeTruthy();
  });

  it("bad keyset members are Blockscout's 422; unknown filter values are dropped", async () => {
    const bad = await w.app.inject("/api/v2/advanced-filters?block_number=x&transaction_index=1");
    expect(bad.statusCode).toBe(422);
    const badIndex = await w.app.inject(
      "/api/v2/advanced-filters?block_number=1&transaction_index=1&internal_transaction_index=abc",
    );
    expect(badIndex.statusCode).toBe(422);
    const body = await get(query({ transaction_types: "nothing", from_address_hashes_to_include: "0x12" }));
    expect(body.items.map(apiKey)).toEqual(w.items.slice(0, 50).map(nodeKey));
  });

  it("CSV: the list's rows with Blockscout's columns", async () => {
    const r = await w.app.inject(
      `/api/v2/advanced-filters/csv?${query({ transaction_types: "ERC-1155,ERC-20" })}`,
    );
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("application/csv");
    const lines = r.body.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      "TxHash,Type,MethodId,UtcTimestamp,FromAddress,ToAddress,CreatedContractAddress,Value,TokenContractAddressHash,TokenDecimals,TokenSymbol,TokenValue,TokenID,BlockNumber,Fee,CurrentPrice,TxDateOpeningPrice,TxDateClosingPrice",
    );
    const expected = w.items.filter((i) => i.tokenType === "ERC-1155" || i.tokenType === "ERC-20");
    expect(lines.length - 1).toBe(expected.length);
    for (const [n, line] of lines.slice(1).entries()) {
      const f = line.split(",");
      const e = expected[n]!;
      expect(f[0]).toBe(e.hash);
      expect(f[1]).toBe(e.tokenType);
      expect(f[2]).toBe(e.input.slice(0, 10));
      expect(f[4]!.toLowerCase()).toBe(e.from);
      expect(f[8]!.toLowerCase()).toBe(e.token);
      expect(f[12]).toBe(e.tokenId ?? "");
      expect(f[13]).toBe(String(e.block));
      expect(f[3]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
  });

  it("methods search: the popular list, by selector, by name", async () => {
    const list = await w.app.inject("/api/v2/advanced-filters/methods");
    expect(list.statusCode).toBe(200);
    expect(Value.Check(AdvancedFilterMethodsSchema, list.json())).toBe(true);
    expect(list.json()).toHaveLength(23);
    const one = async (q: string) => (await w.app.inject(`/api/v2/advanced-filters/methods?q=${q}`)).json();
    expect(await one("transfer")).toEqual([{ method_id: "0xa9059cbb", name: "transfer" }]);
    expect(await one("0xA9059CBB")).toEqual([{ method_id: "0xa9059cbb", name: "transfer" }]);
    expect(await one("0x12345678")).toEqual([{ method_id: "0x12345678", name: "" }]);
    expect(await one("nosuchmethod")).toEqual([]);
  });
});
