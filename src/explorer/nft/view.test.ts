import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { addressView, unknownAddressFacts } from "../objects/address-view.js";
import type { NftRow } from "./query.js";
import { type NftPage, nftItemView, pageTokenViews, serializeNftPage } from "./view.js";

const holder = `0x${"ab".repeat(20)}` as Address;
const contract = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

function row(n: number, type: NftRow["token_type"], metadata: NftRow["metadata"]): NftRow {
  return {
    token_type: type,
    token_address: Buffer.from(contract(1 + (n % 3)).slice(2), "hex"),
    token_id: String(n),
    value: type === "ERC-721" ? "1" : String(n),
    metadata,
    id_supply: type === "ERC-721" ? null : n % 2 ? "1" : "7",
    t_address: Buffer.from(contract(1 + (n % 3)).slice(2), "hex"),
    t_type: type,
    t_name: n % 3 ? `Name "${n % 3}" \u2028 é` : null,
    t_symbol: "SYM",
    t_decimals: null,
    t_total_supply: "123456789012345678901234567890",
    t_holders_count: 4,
    o_is_contract: false,
    o_token_name: null,
    o_proxy_type: null,
    o_implementation: null,
  };
}

describe("serializeNftPage()", () => {
  it("writes exactly what JSON.stringify writes, shared objects included", () => {
    const owner = addressView({
      ...unknownAddressFacts(holder),
      tags: [{ slug: "s", name: 'Tag "x"' }] as never,
    });
    const ctx = { holderHash: holder, owner, gateways: {}, token: pageTokenViews() };
    const metadatas: NftRow["metadata"][] = [
      null,
      {
        name: "Item\n1",
        image: "ipfs://QmYFf7D2UtqnNz8Lu57Gnk3dxgdAiuboPWMEaNNjhr29tS/1.png",
        attributes: [{ a: 1 }],
      },
      {
        image: "https://a/b c.png",
        external_url: "https://x.example/1",
        nested: { deep: [null, true, 1.5] },
      },
      { animation_url: "ar://tx", 'key with "quotes"': "\ud83d\ude00" },
    ];
    const types = ["ERC-721", "ERC-1155", "ERC-404"] as const;
    const items = Array.from({ length: 12 }, (_, n) =>
      nftItemView(row(n, types[n % 3]!, metadatas[n % 4]!), ctx),
    );
    const pages: NftPage[] = [
      {
        items,
        next_page_params: {
          items_count: 12,
          token_contract_address_hash: contract(2),
          token_id: "11",
          token_type: "ERC-404",
        },
      },
      { items, next_page_params: null },
      { items: [], next_page_params: null },
    ];
    for (const page of pages) expect(serializeNftPage(page)).toBe(JSON.stringify(page));
  });
});
