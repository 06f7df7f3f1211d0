import { type Address, encodeDeployData, encodeFunctionData, type Hex, parseEther } from "viem";
import type { Logger } from "../../util/logger.js";
import type { DemoArtifact } from "./compile.js";

type Send = (tx: { from: Address; to?: Address; data?: Hex; value?: bigint }) => Promise<Hex>;

async function rpcCall<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export type DemoTokens = { nft: Address; multi: Address; hybrid: Address; coin: Address };

/**
 * Deploys the demo tokens on a local anvil (its unlocked accounts sign) and makes some activity: mints, transfers,
 * batch transfers, a burn, ERC-404 unit moves and ETH payments, so that holdings and balance histories show up.
 */
export async function deployDemo(
  url: string,
  accounts: readonly Address[],
  c: Record<string, DemoArtifact>,
  logger: Logger,
): Promise<DemoTokens> {
  const send: Send = async (tx) => {
    const hash = await rpcCall<Hex>(url, "eth_sendTransaction", [
      { gas: "0x1c9c380", ...tx, ...(tx.value ? { value: `0x${tx.value.toString(16)}` } : {}) },
    ]);
    for (let i = 0; i < 400; i++) {
      const r = await rpcCall<{ status: Hex; contractAddress: Address | null } | null>(
        url,
        "eth_getTransactionReceipt",
        [hash],
      );
      if (r) {
        if (r.status !== "0x1") throw new Error(`demo transaction ${hash} reverted`);
        return (r.contractAddress ?? hash) as Hex;
      }
      await new Promise((ok) => setTimeout(ok, 50));
    }
    throw new Error(`demo transaction ${hash} was not mined`);
  };
  const [A, B, C, D] = accounts as [Address, Address, Address, Address];
  const deploy = async (name: string, args: unknown[] = []) =>
    (await send({
      from: A,
      data: encodeDeployData({ abi: c[name]!.abi, bytecode: c[name]!.bytecode, args }),
    })) as Address;
  const call = (from: Address, to: Address, name: string, fn: string, args: unknown[] = []) =>
    send({ from, to, data: encodeFunctionData({ abi: c[name]!.abi, functionName: fn, args }) });

  const nft = await deploy("DemoNft", ["Lookout Demo NFT", "LDN", ""]);
  const multi = await deploy("Demo1155", ['data:application/json;utf8,{"name":"Demo item {id}"}']);
  const hybrid = await deploy("Demo404", ["data:application/json;utf8,"]);
  const coin = await deploy("DemoCoin", [10n ** 27n]);
  logger.info({ nft, multi, hybrid, coin }, "Demo: token contracts deployed");

  await call(A, nft, "DemoNft", "mintMany", [A, 1n, 12n]);
  await call(A, nft, "DemoNft", "mintMany", [B, 100n, 3n]);
  await call(A, nft, "DemoNft", "transferFrom", [A, B, 1n]);
  await call(A, nft, "DemoNft", "transferFrom", [A, C, 2n]);
  await call(A, nft, "DemoNft", "burn", [3n]);
  await call(A, multi, "Demo1155", "mintBatch", [A, [1n, 2n, 3n, 4n], [10n, 5n, 1n, 20n]]);
  await call(A, multi, "Demo1155", "safeTransferFrom", [A, B, 1n, 4n, "0x"]);
  await call(A, multi, "Demo1155", "safeBatchTransferFrom", [A, C, [2n, 4n], [2n, 5n], "0x"]);
  await call(A, hybrid, "Demo404", "mintUnits", [A, 5n]);
  await call(A, hybrid, "Demo404", "transfer", [D, parseEther("2.5")]);
  for (const [to, amount] of [
    [B, 1000n],
    [C, 250n],
    [D, 42n],
  ] as const)
    await call(A, coin, "DemoCoin", "transfer", [to, amount * 10n ** 18n]);
  for (let i = 0; i < 6; i++) {
    await send({ from: A, to: B, value: parseEther(String(1 + i)) });
    await send({ from: B, to: C, value: parseEther("0.5") });
  }
  logger.info("Demo: activity mined (mints, transfers, batches, a burn, ERC-404 moves, ETH payments)");
  return { nft, multi, hybrid, coin };
}
