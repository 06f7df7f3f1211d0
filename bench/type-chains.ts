/**
 * The benches' chains with the transaction types of 2026 (bench:index-types, bench:index --chain): the mixed activity
 * of bench:index one block at a time, plus on "prague" EIP-7702 set-code and blob transactions and on "optimism" an
 * OP deposit per block.
 */
import {
  type Address,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  parseEther,
  parseGwei,
  stringToHex,
  toBlobSidecars,
  toBlobs,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type Anvil, startAnvil } from "../src/chain/anvil.js";
import { activityContracts, deployActivityContracts, mineActivity, rpc } from "../test/helpers/activity.js";
import { wasmKzg } from "../test/helpers/kzg.js";

export type ChainKind = "standard" | "prague" | "optimism";
export type Counts = Record<string, number>;

/** Mines the activity one block at a time, with `extra` sending that block's additional transactions first. */
async function mineWith(
  anvil: Anvil,
  blocks: number,
  extra: (block: number) => Promise<void>,
): Promise<void> {
  const k = await deployActivityContracts(anvil.url);
  for (let b = 0; b < blocks; b++) {
    await extra(b);
    await mineActivity(anvil.url, k, { blocks: 1, txPerBlock: 3, seed: 42 + b });
  }
}

/** Set-code and blob transactions beside the activity: a set-code every 2nd block, a blob every 3rd. */
async function praguePlan(anvil: Anvil, counts: Counts): Promise<(b: number) => Promise<void>> {
  const chain = defineChain({
    id: anvil.chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  });
  const funder = anvil.accounts[0]!.address;
  const sponsor = privateKeyToAccount(generatePrivateKey());
  const blobber = privateKeyToAccount(generatePrivateKey());
  const authorities = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()));
  for (const a of [sponsor, blobber])
    await rpc(anvil.url, "eth_sendTransaction", [
      { from: funder, to: a.address, value: toHex(parseEther("100")) },
    ]);
  await rpc(anvil.url, "evm_mine");
  const transport = http(anvil.url, { timeout: 120_000 });
  const sponsorWallet = createWalletClient({ account: sponsor, chain, transport });
  const blobWallet = createWalletClient({ account: blobber, chain, transport });
  const kzg = await wasmKzg();
  const data = stringToHex("lookout bench blob");
  const blobs = toBlobs({ data });
  // One sidecar for every blob transaction: its KZG commitment and proof are computed once.
  const sidecars = toBlobSidecars({ data, kzg });
  // The delegate: the activity's Forwarder (forward(to) sends the call's value on: an internal transfer).
  const delegate = (await deployForwarder(anvil)) as Address;
  const forward = activityContracts().Forwarder!.abi;
  const authNonce = authorities.map(() => 0);
  let sponsorNonce = 0;
  let blobNonce = 0;
  return async (b) => {
    if (b % 2 === 0) {
      const i = (b / 2) % authorities.length;
      const eoa = authorities[i]!;
      const valid = await sponsorWallet.signAuthorization({
        account: eoa,
        contractAddress: delegate,
        chainId: anvil.chainId,
        nonce: authNonce[i]!,
      });
      // Another chain's authorization: the node skips it (invalid_chain_id), the nonce is not used.
      const other = await sponsorWallet.signAuthorization({
        account: eoa,
        contractAddress: delegate,
        chainId: anvil.chainId + 1,
        nonce: authNonce[i]! + 1,
      });
      authNonce[i]! += 1;
      await sponsorWallet.sendTransaction({
        to: eoa.address,
        value: 1000n,
        data: encodeFunctionData({ abi: forward, functionName: "forward", args: [funder] }),
        authorizationList: [valid, other],
        gas: 300_000n,
        nonce: sponsorNonce++,
        maxFeePerGas: parseGwei("50"),
        maxPriorityFeePerGas: parseGwei("1"),
      });
      counts.setCode = (counts.setCode ?? 0) + 1;
    }
    if (b % 3 === 0) {
      await blobWallet.sendTransaction({
        blobs,
        sidecars,
        kzg,
        to: funder,
        nonce: blobNonce++,
        gas: 21_000n,
        maxFeePerGas: parseGwei("50"),
        maxPriorityFeePerGas: parseGwei("1"),
        maxFeePerBlobGas: parseGwei("30"),
      });
      counts.blob = (counts.blob ?? 0) + 1;
    }
  };
}

async function deployForwarder(anvil: Anvil): Promise<string> {
  const c = activityContracts().Forwarder!;
  const hash = await rpc<Hex>(anvil.url, "eth_sendTransaction", [
    { from: anvil.accounts[0]!.address, data: c.bytecode, gas: "0x200000" },
  ]);
  await rpc(anvil.url, "evm_mine");
  const r = await rpc<{ contractAddress: string }>(anvil.url, "eth_getTransactionReceipt", [hash]);
  return r.contractAddress;
}

/** A deposit per block (type 0x7e: no signature; the mint credits the sender, then the value moves on). */
function optimismPlan(anvil: Anvil, counts: Counts): (b: number) => Promise<void> {
  return async (b) => {
    const from = `0x${(0xd0000 + (b % 50)).toString(16).padStart(40, "0")}`;
    await rpc(anvil.url, "eth_sendTransaction", [
      {
        type: "0x7e",
        from,
        to: anvil.accounts[(b % 9) + 1]!.address,
        mint: toHex(parseEther("1")),
        value: toHex(1000n + BigInt(b)),
        sourceHash: toHex(BigInt(b) + 1n, { size: 32 }),
        isSystemTx: false,
        gas: "0x30000",
      },
    ]);
    counts.deposit = (counts.deposit ?? 0) + 1;
  };
}

/**
 * A chain of `kind` with `blocks` blocks of activity on a fresh anvil keeping every block's state (the caller stops
 * it): its head and how many transactions of each type (and set-code, blob, deposit sends) it holds.
 */
export async function buildChain(
  kind: ChainKind,
  blocks: number,
): Promise<{ anvil: Anvil; head: number; counts: Counts }> {
  const anvil = await startAnvil({
    keepHistory: true,
    ...(kind === "prague" ? { hardfork: "prague" } : {}),
    ...(kind === "optimism" ? { network: "optimism" as const } : {}),
  });
  const counts: Counts = {};
  try {
    await rpc(anvil.url, "evm_setAutomine", [false]);
    const plan =
      kind === "prague"
        ? await praguePlan(anvil, counts)
        : kind === "optimism"
          ? optimismPlan(anvil, counts)
          : async () => {};
    await mineWith(anvil, blocks, plan);
    const head = Number(await rpc<string>(anvil.url, "eth_blockNumber"));
    const types: Counts = {};
    for (let n = 0; n <= head; n += 1) {
      const block = await rpc<{ transactions: Array<{ type: string }> }>(anvil.url, "eth_getBlockByNumber", [
        toHex(n),
        true,
      ]);
      for (const t of block.transactions) types[t.type] = (types[t.type] ?? 0) + 1;
    }
    return {
      anvil,
      head,
      counts: { ...counts, ...Object.fromEntries(Object.entries(types).map(([t, c]) => [`type ${t}`, c])) },
    };
  } catch (e) {
    await anvil.stop();
    throw e;
  }
}
