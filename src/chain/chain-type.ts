import { type Address, HttpRequestError, TimeoutError } from "viem";
import { type Rpc, withRetry } from "./rpc.js";

/** The chain family Lookout indexes for, as Blockscout's CHAIN_TYPE (only the values Lookout knows). */
export type ChainType = "default" | "optimism";

/** The setting: a family, or `auto` (found out from the node at start). */
export type ChainTypeSetting = ChainType | "auto";

/** The OP stack's L1Block predeploy: every OP-stack chain has its code from genesis. */
export const OP_L1_BLOCK: Address = "0x4200000000000000000000000000000000000015";

/** EIP-2718 type of OP-stack deposit transactions (L1 → L2, minted by the protocol). */
export const OP_DEPOSIT_TYPE = 0x7e;

/**
 * The OP stack's fee vaults: the sequencer's (usually the block's fee recipient), the base fee's (the base fee is
 * not burnt on OP chains), the L1 data fee's, and the operator fee's (Isthmus). The protocol credits them outside
 * any call frame, so a tracer may not show it.
 */
export const OP_OPERATOR_FEE_VAULT: Address = "0x420000000000000000000000000000000000001b";
export const OP_FEE_VAULTS: readonly Address[] = [
  "0x4200000000000000000000000000000000000011",
  "0x4200000000000000000000000000000000000019",
  "0x420000000000000000000000000000000000001a",
  OP_OPERATOR_FEE_VAULT,
];

/** anvil names its active hardfork in `anvil_nodeInfo`; under `--network optimism` it is an OP-stack one. */
const OP_HARDFORKS = new Set([
  "bedrock",
  "regolith",
  "canyon",
  "ecotone",
  "fjord",
  "granite",
  "holocene",
  "isthmus",
  "jovian",
  "interop",
]);

/**
 * Resolves CHAIN_TYPE. `auto` asks the node twice (once at start): the L1Block predeploy's code (every real
 * OP-stack chain), then anvil's own description (anvil `--network optimism` runs the OP fee rules without deploying
 * the predeploys). A method the node refuses means "not OP"; a transport failure is retried, never taken for an
 * answer. A chain whose blocks carry deposits is still treated as OP per block where it matters (the balance stage).
 */
export async function resolveChainType(rpc: Rpc, setting: ChainTypeSetting): Promise<ChainType> {
  if (setting !== "auto") return setting;
  const ask = <T>(method: string, params: unknown[]) =>
    withRetry(
      () =>
        rpc.request<T>(method, params).catch((e: unknown) => {
          if (e instanceof HttpRequestError || e instanceof TimeoutError) throw e;
          return null;
        }),
      { attempts: 5 },
    );
  const code = await ask<string>("eth_getCode", [OP_L1_BLOCK, "latest"]);
  if (code && code !== "0x") return "optimism";
  const info = await ask<{ hardFork?: string }>("anvil_nodeInfo", []);
  const fork = info?.hardFork?.toLowerCase().replace(/^op[-_ ]?/, "");
  return fork && OP_HARDFORKS.has(fork) ? "optimism" : "default";
}
