import type { Address } from "viem";
import type { Params } from "../../http/etherscan-params.js";
import { indexedHead } from "../head.js";
import { elixirTime, hex, quantity } from "../hex.js";
import { type ActionParams, LIST_PARAMS, PAGE_PARAMS, param } from "../param-spec.js";
import { asAddress, asHash, asInteger, listOptions, pageParams, WINDOW_TOO_LARGE } from "../params.js";
import {
  type Actions,
  type Answer,
  fail,
  list,
  ok,
  pending,
  type RpcApiDeps,
  rpcError,
  rpcResult,
} from "../reply.js";
import {
  accountsInOrder,
  addressInternalTransactions,
  addressKnown,
  addressTransactions,
  allInternalTransactions,
  balanceAt,
  coinBalances,
  holderTokens,
  minedBlocks,
  type TransferKind,
  tokenBalance,
  tokenTransfers,
  transactionInternalTransactions,
  transactionTraced,
} from "./query.js";
import { holdingItem, internalItem, transferItem, txItem } from "./view.js";

const INVALID_ADDRESS = "Invalid address format";
const ADDRESS_REQUIRED = "Query parameter 'address' is required";
const NO_INTERNAL = "No internal transactions found";

/** Up to 20 comma-separated addresses (Blockscout takes the first 20), or null when any is malformed. */
function addressList(raw: string): Address[] | null {
  const out: Address[] = [];
  for (const part of raw.split(",").slice(0, 20)) {
    const a = asAddress(part.trim());
    if (!a) return null;
    out.push(a);
  }
  return out;
}

async function balances(deps: RpcApiDeps, p: Params) {
  const raw = p.get("address");
  if (raw === undefined) return fail(ADDRESS_REQUIRED);
  const addresses = addressList(raw);
  if (!addresses) return fail("Invalid address hash");
  const found = await coinBalances(deps.db, addresses);
  // An address the index never saw has balance 0, as Blockscout's add_not_found_addresses.
  return addresses.map((a) => ({ account: a, balance: found.get(a) ?? "0", stale: false }));
}

async function balance(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const items = await balances(deps, p);
  if (!Array.isArray(items)) return items;
  return items.length === 1 ? ok(items[0]!.balance) : ok(items);
}

async function balancemulti(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const items = await balances(deps, p);
  return Array.isArray(items) ? ok(items) : items;
}

async function txlist(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const o = listOptions(p);
  const raw = p.get("address");
  if (raw === undefined) return fail(ADDRESS_REQUIRED);
  const address = asAddress(raw);
  if (!address) return fail(INVALID_ADDRESS);
  if (!o) return fail(WINDOW_TOO_LARGE);
  const head = await indexedHead(deps.db);
  if (head === null || !(await addressKnown(deps.db, address))) return fail("No transactions found", []);
  const rows = await addressTransactions(deps.db, address, o);
  return list(
    rows.map((r) => txItem(r, head)),
    "No transactions found",
  );
}

const includeZero = (p: Params) => p.get("include_zero_value")?.toLowerCase() === "true";

async function txlistinternal(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const o = listOptions(p);
  const rawAddress = p.get("address");
  const rawHash = p.get("txhash");
  if (rawAddress === undefined && rawHash !== undefined) {
    if (!o) return fail(WINDOW_TOO_LARGE);
    const hash = asHash(rawHash);
    if (!hash) return fail("Invalid txhash format");
    const traced = await transactionTraced(deps.db, hash);
    if (traced === null) return fail(NO_INTERNAL, []);
    if (!traced) return pending("Internal transactions for this transaction have not been processed yet", []);
    const rows = await transactionInternalTransactions(deps.db, hash, o, includeZero(p));
    return list(rows.map(internalItem), NO_INTERNAL);
  }
  if (!o) return fail(WINDOW_TOO_LARGE);
  if (rawAddress === undefined) {
    return list((await allInternalTransactions(deps.db, o, includeZero(p))).map(internalItem), NO_INTERNAL);
  }
  const address = asAddress(rawAddress);
  if (!address) return fail(INVALID_ADDRESS);
  if (!(await addressKnown(deps.db, address))) return fail(NO_INTERNAL, []);
  const rows = await addressInternalTransactions(deps.db, address, o, includeZero(p));
  return list(rows.map(internalItem), NO_INTERNAL);
}

function transfers(kind: TransferKind) {
  return async (deps: RpcApiDeps, p: Params): Promise<Answer> => {
    const o = listOptions(p);
    if (!o) return fail(WINDOW_TOO_LARGE);
    const rawAddress = p.get("address");
    const rawToken = p.get("contractaddress");
    const address = rawAddress === undefined ? null : asAddress(rawAddress);
    if (rawAddress !== undefined && !address) return fail(INVALID_ADDRESS);
    const token = rawToken === undefined ? null : asAddress(rawToken);
    if (rawToken !== undefined && !token) return fail("Invalid contract address format");
    if (!address && !token) return fail("Query parameter address or contractaddress is required");
    const head = await indexedHead(deps.db);
    if (head === null) return fail("No token transfers found", []);
    const rows = await tokenTransfers(deps.db, kind, address, token, o);
    return list(
      rows.map((r) => transferItem(r, head)),
      "No token transfers found",
    );
  };
}

async function tokenbalance(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const missing = ["contractaddress", "address"].filter((k) => p.get(k) === undefined);
  if (missing.length) return fail(`Required query parameters missing: ${missing.join(", ")}`);
  const token = asAddress(p.get("contractaddress"));
  if (!token) return fail("Invalid contractaddress format");
  const holder = asAddress(p.get("address"));
  if (!holder) return fail("Invalid address format");
  return ok(await tokenBalance(deps.db, token, holder));
}

async function tokenlist(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const raw = p.get("address");
  if (raw === undefined) return fail("Query parameter address is required");
  const address = asAddress(raw);
  if (!address) return fail(INVALID_ADDRESS);
  return list((await holderTokens(deps.db, address)).map(holdingItem), "No tokens found");
}

async function getminedblocks(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const { page, offset } = pageParams(p, { page: 1, offset: 10_000 });
  const raw = p.get("address");
  if (raw === undefined) return fail(ADDRESS_REQUIRED);
  const address = asAddress(raw);
  if (!address) return fail(INVALID_ADDRESS);
  const rows = await minedBlocks(deps.db, address, page, offset);
  return list(
    rows.map((b) => ({ blockNumber: String(b.number), timeStamp: elixirTime(b.timestamp) })),
    "No blocks found",
  );
}

async function listaccounts(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const { page, offset } = pageParams(p, { page: 1, offset: 10 });
  if (page * offset > 10_000) return fail(WINDOW_TOO_LARGE);
  const rows = await accountsInOrder(deps.db, page, offset);
  return ok(rows.map((r) => ({ balance: r.value ?? "0", address: hex(r.address), stale: false })));
}

/** The index holds mined transactions only (no mempool), so no address has pending ones. */
async function pendingtxlist(_deps: RpcApiDeps, p: Params): Promise<Answer> {
  if (!listOptions(p)) return fail(WINDOW_TOO_LARGE);
  const raw = p.get("address");
  if (raw === undefined) return fail(ADDRESS_REQUIRED);
  if (!asAddress(raw)) return fail(INVALID_ADDRESS);
  return fail("No transactions found", []);
}

/** `eth_get_balance`: JSON-RPC shaped, from the index's balance history (Blockscout's Blocks.get_balance_as_of_block). */
async function ethGetBalance(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const id = 0;
  const raw = p.get("address");
  if (raw === undefined) return { httpStatus: 400, body: rpcError(-32602, ADDRESS_REQUIRED, id) };
  const address = asAddress(raw);
  if (!address) return { httpStatus: 400, body: rpcError(-32602, "Invalid address hash", id) };
  const tag = p.get("block") ?? "latest";
  const head = await indexedHead(deps.db);
  let block: number | null;
  if (tag === "latest" || tag === "pending") block = head;
  else if (tag === "earliest") block = 0;
  else block = asInteger(tag);
  if (block === null && head !== null)
    return { httpStatus: 400, body: rpcError(-32602, "Invalid block", id) };
  const value = block === null ? null : await balanceAt(deps.db, address, block);
  if (value === null) return { httpStatus: 404, body: rpcError(-32000, "Balance not found", id) };
  return { httpStatus: 200, body: rpcResult(quantity(value), id) };
}

const address = (d: string) => param.req("address", "address", d);
const transferParams = (standard: string) => [
  {
    ...param.opt("address", "address", `Holder whose ${standard} transfers to list`),
    required: "one-of:address" as const,
  },
  {
    ...param.opt("contractaddress", "address", `The ${standard} token`),
    required: "one-of:address" as const,
  },
  ...LIST_PARAMS,
];

/** Each action's parameters (the OpenAPI document's `x-actions`; Blockscout's RPC docs for the account module). */
export const accountParams: ActionParams = {
  balance: [address("Address, or up to 20 comma-separated addresses")],
  balancemulti: [address("Up to 20 comma-separated addresses")],
  txlist: [address("Address whose transactions to list"), ...LIST_PARAMS],
  txlistinternal: [
    param.opt("txhash", "hash", "Transaction whose internal transactions to list"),
    param.opt("address", "address", "Address whose internal transactions to list (neither: all of them)"),
    {
      ...param.opt("include_zero_value", "boolean", "`true`: zero-value calls too"),
      enum: ["true", "false"],
    },
    ...LIST_PARAMS,
  ],
  tokentx: transferParams("ERC-20"),
  tokennfttx: transferParams("ERC-721"),
  token1155tx: transferParams("ERC-1155"),
  token404tx: transferParams("ERC-404"),
  token7984tx: transferParams("ERC-7984"),
  tokenbalance: [param.req("contractaddress", "address", "The token"), address("The holder")],
  tokenlist: [address("Holder whose token balances to list")],
  getminedblocks: [address("Miner whose blocks to list"), ...PAGE_PARAMS],
  listaccounts: [...PAGE_PARAMS],
  pendingtxlist: [address("Address whose pending transactions to list"), ...LIST_PARAMS],
  eth_get_balance: [
    address("The account"),
    param.opt("block", "string", "Block number (hex or decimal) or tag (default latest)"),
  ],
};

export const accountActions: Actions = {
  balance,
  balancemulti,
  txlist,
  txlistinternal,
  tokentx: transfers("ERC-20"),
  tokennfttx: transfers("ERC-721"),
  token1155tx: transfers("ERC-1155"),
  token404tx: transfers("ERC-404"),
  token7984tx: transfers("ERC-7984"),
  tokenbalance,
  tokenlist,
  getminedblocks,
  listaccounts,
  pendingtxlist,
  eth_get_balance: ethGetBalance,
};
