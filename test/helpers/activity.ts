import { readFileSync } from "node:fs";
import { type Address, encodeDeployData, encodeFunctionData, type Hex, keccak256, toHex } from "viem";
import { anvilAccounts } from "../../src/chain/anvil.js";
import { packagePath } from "../../src/util/package-root.js";
import { type CompiledArtifact, compileSolidity } from "./solc.js";

let compiled: Record<string, CompiledArtifact> | undefined;
/** The test contracts of test/contracts/Activity.sol, compiled once per process. */
export function activityContracts(): Record<string, CompiledArtifact> {
  compiled ??= compileSolidity({
    "Activity.sol": readFileSync(packagePath("test/contracts/Activity.sol"), "utf8"),
  });
  return compiled;
}

type RpcCall = { method: string; params: unknown[] };

/** Raw JSON-RPC batch (anvil's unlocked accounts sign server-side, so sending is cheap). */
export async function rpcBatch<T = unknown>(url: string, calls: RpcCall[]): Promise<T[]> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, ...c }))),
  });
  const body = (await res.json()) as Array<{ id: number; result?: T; error?: { message: string } }>;
  body.sort((a, b) => a.id - b.id);
  return body.map((r) => {
    if (r.error) throw new Error(`${calls[r.id]?.method}: ${r.error.message}`);
    return r.result as T;
  });
}

export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  return (await rpcBatch<T>(url, [{ method, params }]))[0]!;
}

export type ActivityContracts = { token: Address; factory: Address; forwarder: Address };

const accounts = anvilAccounts();
const addr = (i: number) => accounts[i % accounts.length]!.address;

/** Deploys the activity contracts (one block each) and returns their addresses. */
export async function deployActivityContracts(url: string): Promise<ActivityContracts> {
  const c = activityContracts();
  const deploy = async (name: string, args: unknown[] = []) => {
    const data = encodeDeployData({ abi: c[name]!.abi, bytecode: c[name]!.bytecode, args });
    const hash = await rpc<Hex>(url, "eth_sendTransaction", [{ from: addr(0), data, gas: "0x500000" }]);
    await rpc(url, "evm_mine");
    const r = await rpc<{ contractAddress: Address; status: Hex }>(url, "eth_getTransactionReceipt", [hash]);
    if (r.status !== "0x1") throw new Error(`deploying ${name} failed`);
    return r.contractAddress;
  };
  await rpc(url, "evm_setAutomine", [false]);
  const token = await deploy("SimpleToken", [10n ** 30n]);
  const factory = await deploy("Factory");
  const forwarder = await deploy("Forwarder");
  return { token, factory, forwarder };
}

/**
 * Mines `blocks` blocks of mixed activity: ETH transfers, token transfers, calls forwarding ETH internally,
 * contract creations by transactions and inside transactions (CREATE, CREATE2), a reverting creation and empty
 * blocks. Deterministic for a given `seed`. Automine must be off (deployActivityContracts turns it off).
 */
export async function mineActivity(
  url: string,
  k: ActivityContracts,
  o: { blocks: number; txPerBlock?: number; seed?: number; chunk?: number },
): Promise<void> {
  const c = activityContracts();
  const per = o.txPerBlock ?? 4;
  let n = o.seed ?? 1;
  // anvil handles a batch's calls concurrently: explicit nonces keep transactions of one sender apart, and each
  // block's sends go in their own batch before its evm_mine.
  const nonces = (
    await rpcBatch<Hex>(
      url,
      accounts.map((a) => ({ method: "eth_getTransactionCount", params: [a.address, "pending"] })),
    )
  ).map((x) => Number(x));
  const nonceOf = (a: Address) => {
    const i = accounts.findIndex((x) => x.address === a);
    return toHex(nonces[i]!++);
  };
  const calls: RpcCall[] = [];
  for (let b = 0; b < o.blocks; b++) {
    const kind = n % 11;
    if (kind !== 10) {
      for (let t = 0; t < per; t++) {
        n = (n * 1103515245 + 12345) % 2147483648;
        const from = addr(n % 10);
        const to = addr((n >> 4) % 10);
        const sel = (n >> 8) % 6;
        let tx: Record<string, unknown>;
        if (sel === 0) tx = { from, to, value: toHex(1000n + BigInt(n % 1000)) };
        else if (sel === 1)
          tx = {
            from: addr(0),
            to: k.token,
            data: encodeFunctionData({
              abi: c.SimpleToken!.abi,
              functionName: "transfer",
              args: [to, BigInt(n % 97)],
            }),
          };
        else if (sel === 2)
          tx = {
            from,
            to: k.forwarder,
            value: toHex(5000n),
            data: encodeFunctionData({ abi: c.Forwarder!.abi, functionName: "forward", args: [to] }),
          };
        else if (sel === 3)
          tx = {
            from,
            to: k.factory,
            value: toHex(7n),
            data: encodeFunctionData({ abi: c.Factory!.abi, functionName: "create", args: [BigInt(n)] }),
          };
        else if (sel === 4)
          tx = {
            from,
            to: k.factory,
            data: encodeFunctionData({
              abi: c.Factory!.abi,
              functionName: "create2",
              args: [BigInt(n), keccak256(toHex(`${o.seed ?? 1}-${b}-${t}`))],
            }),
          };
        else
          tx = {
            from,
            data: encodeDeployData({ abi: c.Child!.abi, bytecode: c.Child!.bytecode, args: [BigInt(n)] }),
          };
        calls.push({
          method: "eth_sendTransaction",
          params: [{ gas: "0x200000", nonce: nonceOf(tx.from as Address), ...tx }],
        });
      }
    }
    if (calls.length) await rpcBatch(url, calls);
    calls.length = 0;
    await rpc(url, "evm_mine");
    n = (n * 1103515245 + 12345) % 2147483648;
  }
}

/** Waits until anvil has mined `hash` (automine mines asynchronously) and returns its receipt. */
export async function waitForReceipt<T = { status: Hex; contractAddress: Address | null }>(
  url: string,
  hash: Hex,
): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const r = await rpc<T | null>(url, "eth_getTransactionReceipt", [hash]);
    if (r) return r;
    await new Promise((ok) => setTimeout(ok, 25));
  }
  throw new Error(`transaction ${hash} was not mined`);
}
