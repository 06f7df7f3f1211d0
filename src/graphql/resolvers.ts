import { GraphQLError } from "graphql";
import { toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import { blockByNumber } from "../explorer/block/query.js";
import type { Loaders } from "./loaders.js";
import type { ConnectionArgs } from "./paging.js";
import { internalTransactionRow, transferKeyOf, transferRows } from "./query.js";
import { SCALARS } from "./scalars.js";
import {
  type AddressObject,
  blockView,
  internalTransactionView,
  type TokenTransferObject,
  type TransactionObject,
  tokenTransferView,
} from "./view.js";

export type GraphqlContext = { db: Queryable; loaders: Loaders };

type PageArgs = ConnectionArgs & { count?: number | null };

const pageArgs = (a: PageArgs) => ({
  first: a.first ?? null,
  last: a.last ?? null,
  after: a.after ?? null,
  before: a.before ?? null,
});

/** Errors as Blockscout's resolvers word them ("Address not found."), null data at their path. */
const fail = (message: string) => new GraphQLError(message);

async function orFail<T>(value: Promise<T | null>, message: string): Promise<T> {
  const v = await value;
  if (v === null) throw fail(message);
  return v;
}

/** `node(id)`: Relay's global ids of transactions, internal transactions and token transfers. */
async function node(id: string, ctx: GraphqlContext) {
  const text = Buffer.from(id, "base64").toString("utf8");
  const at = text.indexOf(":");
  const type = text.slice(0, at);
  const rest = text.slice(at + 1);
  const hashOf = (h: unknown) => {
    if (typeof h !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(h)) throw fail("Unknown node");
    return h.toLowerCase();
  };
  const json = () => {
    try {
      return JSON.parse(rest) as Record<string, unknown>;
    } catch {
      throw fail("Unknown node");
    }
  };
  if (type === "Transaction")
    return {
      __typename: "Transaction",
      ...(await orFail(ctx.loaders.transaction.load(hashOf(rest)), "Transaction not found.")),
    };
  if (type === "InternalTransaction") {
    const o = json();
    const row = await internalTransactionRow(ctx.db, toBytea(hashOf(o.transaction_hash)), Number(o.index));
    if (!row) throw fail("Internal transaction not found.");
    return { __typename: "InternalTransaction", ...internalTransactionView(row) };
  }
  if (type === "TokenTransfer") {
    const o = json();
    const key = await transferKeyOf(ctx.db, toBytea(hashOf(o.transaction_hash)), Number(o.log_index));
    if (!key) throw fail("Token transfer not found.");
    return { __typename: "TokenTransfer", ...tokenTransferView(await transferRows(ctx.db, [key])) };
  }
  throw fail("Unknown node");
}

/** Resolvers of Blockscout's queries and of the fields that read more; the others read the objects' own members. */
export const RESOLVERS = {
  ...SCALARS,
  Node: {
    resolveType: (o: { __typename?: string }) => o.__typename ?? null,
  },
  Query: {
    node: (_: unknown, a: { id: string }, ctx: GraphqlContext) => node(a.id, ctx),
    address: (_: unknown, a: { hash: string }, ctx: GraphqlContext) =>
      orFail(ctx.loaders.address.load(a.hash), "Address not found."),
    addresses: async (_: unknown, a: { hashes: string[] }, ctx: GraphqlContext) => {
      const found = (await ctx.loaders.address.loadMany([...new Set(a.hashes)])).filter(
        (x): x is AddressObject => x !== null && !(x instanceof Error),
      );
      if (found.length === 0) throw fail("Addresses not found.");
      return found;
    },
    block: async (_: unknown, a: { number: number }, ctx: GraphqlContext) => {
      const row = a.number < 0 ? null : await blockByNumber(ctx.db, a.number);
      if (!row) throw fail(`Block number ${a.number} was not found.`);
      return blockView(row);
    },
    transaction: (_: unknown, a: { hash: string }, ctx: GraphqlContext) =>
      orFail(ctx.loaders.transaction.load(a.hash), "Transaction not found."),
    tokenTransfers: (_: unknown, a: PageArgs & { tokenContractAddressHash: string }, ctx: GraphqlContext) =>
      ctx.loaders.tokenTransfers.load({ parent: a.tokenContractAddressHash, args: pageArgs(a) }),
  },
  Address: {
    smartContract: (o: AddressObject, _: unknown, ctx: GraphqlContext) =>
      ctx.loaders.smartContract.load(o.hash),
    transactions: (o: AddressObject, a: PageArgs & { order?: "ASC" | "DESC" }, ctx: GraphqlContext) =>
      ctx.loaders.addressTransactions.load({
        parent: o.hash,
        args: { ...pageArgs(a), order: a.order ?? "DESC" },
      }),
    tokenTransfers: (o: AddressObject, a: PageArgs, ctx: GraphqlContext) =>
      ctx.loaders.addressTransfers.load({ parent: o.hash, args: pageArgs(a) }),
  },
  Transaction: {
    block: (o: TransactionObject, _: unknown, ctx: GraphqlContext) =>
      orFail(ctx.loaders.block.load(o.blockNumber), `Block hash ${o.blockHash} was not found.`),
    internalTransactions: (o: TransactionObject, a: PageArgs, ctx: GraphqlContext) =>
      ctx.loaders.internalTransactions.load({ parent: o.hash, args: pageArgs(a) }),
  },
  TokenTransfer: {
    transaction: (o: TokenTransferObject, _: unknown, ctx: GraphqlContext) =>
      orFail(ctx.loaders.transaction.load(o.transactionHash), "Transaction not found."),
    token: (o: TokenTransferObject, _: unknown, ctx: GraphqlContext) =>
      orFail(ctx.loaders.token.load(o.tokenContractAddressHash), "Token not found."),
  },
};
