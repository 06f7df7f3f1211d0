import { readFileSync } from "node:fs";
import { type Abi, type Address, encodeDeployData, encodeFunctionData, type Hex } from "viem";
import { SAMPLE_TOKENS } from "../../src/app/demo/compile.js";
import type { App } from "../../src/app/http-app.js";
import { packagePath } from "../../src/util/package-root.js";
import { rpc } from "./activity.js";
import { type CompiledArtifact, compileSolidity } from "./solc.js";

let compiled: Record<string, CompiledArtifact> | undefined;
/** test/contracts/Tokens.sol (OpenZeppelin ERC-721/ERC-20/ERC1967Proxy, our ERC-1155 and ERC-404), compiled once. */
export function tokenContracts(): Record<string, CompiledArtifact> {
  compiled ??= compileSolidity({
    "Tokens.sol": readFileSync(packagePath("test/contracts/Tokens.sol"), "utf8"),
    [SAMPLE_TOKENS]: readFileSync(packagePath("src/contracts/SampleTokens.sol"), "utf8"),
  });
  return compiled;
}

/** Sends a transaction from an unlocked anvil account (automine on) and checks it succeeded. */
export async function send(url: string, tx: { from: Address; to?: Address; data: Hex }): Promise<Hex> {
  const hash = await rpc<Hex>(url, "eth_sendTransaction", [{ gas: "0x1c9c380", ...tx }]);
  let r: { status: Hex } | null = null;
  for (let i = 0; i < 200 && !r; i++) {
    r = await rpc<{ status: Hex } | null>(url, "eth_getTransactionReceipt", [hash]);
    if (!r) await new Promise((ok) => setTimeout(ok, 25));
  }
  if (r?.status !== "0x1")
    throw new Error(`transaction ${hash} reverted (${tx.data.slice(0, 10)} to ${tx.to ?? "create"})`);
  return hash;
}

export async function deploy(
  url: string,
  from: Address,
  name: string,
  args: unknown[] = [],
): Promise<Address> {
  const c = tokenContracts()[name]!;
  const hash = await send(url, { from, data: encodeDeployData({ abi: c.abi, bytecode: c.bytecode, args }) });
  const r = await rpc<{ contractAddress: Address }>(url, "eth_getTransactionReceipt", [hash]);
  return r.contractAddress.toLowerCase() as Address;
}

export function callData(name: string, functionName: string, args: unknown[] = []): Hex {
  return encodeFunctionData({ abi: tokenContracts()[name]!.abi as Abi, functionName, args });
}

export async function invoke(
  url: string,
  from: Address,
  to: Address,
  name: string,
  fn: string,
  args: unknown[] = [],
): Promise<Hex> {
  return send(url, { from, to, data: callData(name, fn, args) });
}

/** eth_call returning the raw answer, or null when it reverts. */
export async function read(url: string, to: Address, name: string, fn: string, args: unknown[] = []) {
  try {
    return await rpc<Hex>(url, "eth_call", [{ to, data: callData(name, fn, args) }, "latest"]);
  } catch {
    return null;
  }
}

export type NftPageBody = {
  items: Array<
    Record<string, unknown> & {
      id: string;
      token_type: string;
      value: string;
      token: { address_hash: string };
    }
  >;
  next_page_params: Record<string, string | number> | null;
};

/** Walks /addresses/{h}/nft through next_page_params; returns every item and the pages' sizes. */
export async function walkNft(app: App, holder: string, type?: string) {
  const items: NftPageBody["items"] = [];
  const pages: number[] = [];
  let params: Record<string, string | number> | null = {};
  for (let guard = 0; params && guard < 10_000; guard++) {
    const q = new URLSearchParams(
      Object.entries({ ...params, ...(type !== undefined ? { type } : {}) }).map(
        ([k, v]): [string, string] => [k, String(v)],
      ),
    );
    const res = await app.inject({ method: "GET", url: `/api/v2/addresses/${holder}/nft?${q}` });
    if (res.statusCode !== 200) throw new Error(`GET nft: ${res.statusCode} ${res.body}`);
    const body = res.json() as NftPageBody;
    items.push(...body.items);
    pages.push(body.items.length);
    params = body.next_page_params;
  }
  return { items, pages };
}

/** Holdings as comparable strings "type|contract|id|value". */
export const holdingKey = (type: string, token: string, id: bigint | string, value: bigint | string) =>
  `${type}|${token.toLowerCase()}|${id}|${value}`;
