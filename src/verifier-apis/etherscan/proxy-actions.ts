import type { Address } from "viem";
import { proxyRefresh, requestProxyRefresh } from "../../chain-store/proxy-refresh.js";
import type { Params } from "../../http/etherscan-params.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { chainFor } from "../../verifier/submit.js";
import type { EtherscanApi } from "./actions.js";
import { addressParam } from "./parse.js";
import { type Envelope, notOk, ok, TEXT } from "./view.js";

const PROXY_TEXT = {
  notVerified: "Smart-contract not found or is not verified",
  notIndexed: "Proxy verification reads the indexed chain; this chain id is only verified here",
  notDetected:
    "A corresponding implementation contract was unfortunately not detected for the proxy address.",
  found: (proxy: string, implementation: string) =>
    `The proxy's (${proxy}) implementation contract is found at ${implementation} and is successfully updated.`,
} as const;

/**
 * `verifyproxycontract` (hardhat-upgrades links a proxy to its implementation ABI with it): for a verified contract
 * of the indexed chain, asks the indexer to read its implementation again and answers the GUID to poll. As
 * Blockscout, `expectedimplementation` is not compared: the answer names what was found.
 */
export async function verifyProxyContract(api: EtherscanApi, p: Params): Promise<Envelope> {
  const address = addressParam(p, "address") as Address;
  const chain = chainFor(api.chains, p.get("chainid"));
  if (!chain.config.indexed) return notOk(PROXY_TEXT.notIndexed);
  if (!(await getVerifiedContract(api.db, chain.config.id, address))) return notOk(PROXY_TEXT.notVerified);
  return ok(await requestProxyRefresh(api.db, address));
}

/**
 * `checkproxyverification`: "Pending in queue" (status "0", as Etherscan, which clients poll on) until the indexer
 * has read the proxy at its next block, then the implementation found or Blockscout's "not detected" failure.
 */
export async function checkProxyVerification(api: EtherscanApi, p: Params): Promise<Envelope> {
  const guid = p.get("guid");
  if (!guid) return notOk("Missing guid field");
  if (!/^[0-9a-f]{1,80}$/i.test(guid)) return notOk(TEXT.unknownGuid);
  const r = await proxyRefresh(api.db, guid.toLowerCase());
  if (!r) return notOk(TEXT.unknownGuid);
  if (r.state === "pending") return notOk(TEXT.pending);
  if (!r.implementation) return notOk(PROXY_TEXT.notDetected);
  return ok(PROXY_TEXT.found(r.address, r.implementation));
}
