import type { Address, Hex } from "viem";
import { newestProxySql } from "../../chain-store/proxies.js";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import type { ExplorerDeps } from "../deps.js";
import type { VerifiedContractLookup } from "../objects/verified-store.js";
import { indexedChainId } from "../objects/verified-store.js";
import { page } from "../paging.js";
import {
  type ContractsFilter,
  contractRows,
  countersRow,
  latestCreationCode,
  proxyAndLicense,
} from "./query.js";
import {
  abiMethodFlags,
  contractFactsView,
  contractItemView,
  contractsCountersView,
  smartContractView,
  unverifiedContractView,
} from "./view.js";

/**
 * An EOA's code while it delegates (EIP-7702): 0xef0100 followed by the delegate, as the node holds it. Blockscout
 * serves such an address as a contract whose code is that designation; no creation.
 */
async function delegationCode(db: Queryable, address: string) {
  const [p] = await db.query<{ implementation: Uint8Array | null }>(
    `select implementation from ${newestProxySql("$1", "proxy_type, implementation")} p
     where p.proxy_type = 'eip7702'`,
    [toBytea(address)],
  );
  if (!p?.implementation) return null;
  return { runtimeCode: `0xef0100${fromBytea(p.implementation).slice(2)}` as Hex, initCode: null };
}

/** The address facts of the smart-contract object; the implementation's verified name looked up. */
async function contractFacts(
  db: Queryable,
  chainId: string,
  address: Hex,
  verified: VerifiedContractLookup | undefined,
  runtimeCode: Hex | null,
) {
  const { proxy, license } = await proxyAndLicense(db, chainId, address);
  const impl = proxy?.implementation ? (fromBytea(proxy.implementation) as Address) : null;
  const names = impl && verified ? await verified([impl]) : new Map();
  return contractFactsView(proxy, license, names, runtimeCode);
}

/**
 * GET /smart-contracts/{h}: verified source, ABI, compiler, settings, match type and constructor arguments from our
 * verified-contract store; code only for an unverified contract we indexed; null for neither. Both carry the
 * contract's facts (creation status, proxy, implementations) and the read/write method flags.
 */
export async function smartContract(db: Queryable, address: string, verified?: VerifiedContractLookup) {
  const chainId = await indexedChainId(db);
  if (chainId) {
    const record = await getVerifiedContract(db, chainId, address);
    if (record) {
      const view = smartContractView(record);
      const facts = await contractFacts(db, chainId, address as Hex, verified, record.onchainRuntimeCode);
      return { ...view, ...facts, ...abiMethodFlags(view.abi) };
    }
  }
  const created = (await latestCreationCode(db, address)) ?? (await delegationCode(db, address));
  if (!created) return null;
  const facts = await contractFacts(db, chainId ?? "0", address as Hex, verified, created.runtimeCode);
  return {
    ...unverifiedContractView(created.runtimeCode, created.initCode),
    ...facts,
    ...abiMethodFlags(null),
  };
}

/**
 * `GET /api/v2/smart-contracts` (frontend type `VerifiedContractsResponse`): the indexed chain's verified contracts,
 * newest verification first (`q`: name part or address; `filter`: language).
 */
export async function contractsPage(
  db: Queryable,
  chainId: string,
  o: { q?: string | undefined; filter?: ContractsFilter | undefined; before?: number | undefined },
  deps: Omit<ExplorerDeps, "db">,
) {
  return page({
    rows: await contractRows(db, chainId, o),
    cursor: (last) => ({ smart_contract_id: last.id }),
    addressesOf: (rows) => rows.map((r) => fromBytea(r.address) as Address),
    deps: { ...deps, db },
    render: (rows, addresses) => rows.map((r) => contractItemView(r, addresses)),
  });
}

/** `GET /api/v2/smart-contracts/counters`. */
export async function contractsCounters(db: Queryable, chainId: string) {
  return contractsCountersView(await countersRow(db, chainId));
}
