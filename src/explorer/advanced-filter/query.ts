import type { Address } from "viem";
import { everContractSql, newestProxySql } from "../../chain-store/proxies.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { calleeVerifiedSql } from "../../verifier/store/index-fragments.js";
import { type AddressFactColumns, addressFactsJoin } from "../objects/address-facts.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../objects/token-view.js";
import {
  type AdvancedFilterCursor,
  type AdvancedFilters,
  type Inclusion,
  inclusion,
  sources,
  TRANSACTION_TYPES,
} from "./filters.js";

/** Kinds of items, in the order Blockscout lists them inside one transaction. */
export const KIND = { transaction: 0, transfer: 1, internal: 2 } as const;

/** One item of the list with everything its view and its CSV row need (numerics as decimal strings). */
export type AdvancedFilterRow = {
  kind: 0 | 1 | 2;
  block_number: number;
  transaction_index: number;
  /** The transfer's log index or the frame's index (0 for a transaction). */
  sub_index: number;
  /** Lookout's position inside an ERC-1155 batch (0 first); batch_count: the batch's length. */
  batch_index: number;
  batch_count: number | string | null;
  hash: Uint8Array;
  timestamp: Date;
  status: number | null;
  error: string | null;
  price: string | null;
  tx_gas_used: string;
  tx_input: Uint8Array;
  tx_to: Uint8Array | null;
  from_address: Uint8Array;
  to_address: Uint8Array | null;
  created_address: Uint8Array | null;
  value: string | null;
  frame_input: Uint8Array | null;
  frame_gas_used: string | null;
  token_address: Uint8Array | null;
  token_id: string | null;
  amount: string | null;
  callee_verified: boolean;
} & TokenColumns &
  FactsOf<"af"> &
  FactsOf<"at"> &
  FactsOf<"ac">;

type FactsOf<A extends string> = {
  [K in keyof AddressFactColumns as K extends `o_${infer C}` ? `${A}_${C}` : never]: AddressFactColumns[K];
};

/** Numbered parameters of one statement. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** Whether the address in `col` holds code as the address objects tell it (creations, proxies, tokens). */
const isContract = everContractSql;

const selector = (col: string) => `substring(${col} from 1 for 4)`;
/**
 * A transaction's selector `test` (`= $1`, `= any($1)`): with the length condition that lets the planner use
 * migration 100's partial index transactions_method_idx, the one selector index of `transactions`.
 */
const txSelector = (col: string, test: string) => `length(${col}) >= 4 and ${selector(col)} ${test}`;

/** One range scan of the list: extra conditions of its access path, the statement's FROM and order. */
type Branch = { from: string; where: string[]; order: string };

type AddressAccess = { drivers: string[][] | null; filters: string[] };

/**
 * The address conditions of a source (AdvancedFilter.filter_*_by_addresses): include lists become access paths,
 * one range scan of the (address, position) index per address; exclude lists and "or" with an exclude list are
 * conditions checked while scanning (they match most rows). Rows of an address in both lists of an "or" come from
 * two scans and are merged once (`union`).
 */
function addressAccess(
  p: Params,
  fromCol: string,
  toCol: string,
  from: Inclusion,
  to: Inclusion,
  relation: "and" | "or",
): AddressAccess {
  const list = (i: NonNullable<Inclusion>) => `${p.add(i.addresses.map(toBytea))}::bytea[]`;
  const eachOf = (col: string, i: NonNullable<Inclusion>) =>
    i.addresses.map((a) => [`${col} = ${p.add(toBytea(a))}`]);
  const none = (col: string, i: NonNullable<Inclusion>) => `${col} <> all(${list(i)})`;
  const any = (col: string, i: NonNullable<Inclusion>) => `${col} = any(${list(i)})`;
  if (!from && !to) return { drivers: null, filters: [] };
  if (from && !to)
    return from.mode === "include"
      ? { drivers: eachOf(fromCol, from), filters: [] }
      : { drivers: null, filters: [none(fromCol, from)] };
  if (!from && to)
    return to.mode === "include"
      ? { drivers: eachOf(toCol, to), filters: [] }
      : { drivers: null, filters: [none(toCol, to)] };
  const f = from!;
  const t = to!;
  if (f.mode === "include" && t.mode === "include")
    return relation === "and"
      ? { drivers: eachOf(fromCol, f), filters: [any(toCol, t)] }
      : { drivers: [...eachOf(fromCol, f), ...eachOf(toCol, t)], filters: [] };
  if (f.mode === "include")
    return relation === "and"
      ? { drivers: eachOf(fromCol, f), filters: [none(toCol, t)] }
      : { drivers: null, filters: [`(${any(fromCol, f)} or ${none(toCol, t)})`] };
  if (t.mode === "include")
    return relation === "and"
      ? { drivers: eachOf(toCol, t), filters: [none(fromCol, f)] }
      : { drivers: null, filters: [`(${any(toCol, t)} or ${none(fromCol, f)})`] };
  return relation === "and"
    ? { drivers: null, filters: [none(fromCol, f), none(toCol, t)] }
    : { drivers: null, filters: [`(${none(fromCol, f)} or ${none(toCol, t)})`] };
}

/**
 * Amount bounds as Blockscout applies them: both bounds need `to` > 0 and `from` < `to`; `to` alone needs `to` > 0
 * (otherwise nothing matches); `from` alone applies only when positive. `scaled` is the amount in whole units.
 */
function amountConditions(p: Params, scaled: string, f: AdvancedFilters["amount"]): string[] | "none" {
  const { from, to } = f;
  const positive = (v: string) => Number(v) > 0;
  if (from !== null && to !== null) {
    if (!positive(to) || !(Number(from) < Number(to))) return "none";
    return [`${scaled} >= ${p.add(from)}::numeric`, `${scaled} <= ${p.add(to)}::numeric`];
  }
  if (to !== null) return positive(to) ? [`${scaled} <= ${p.add(to)}::numeric`] : "none";
  if (from !== null && positive(from)) return [`${scaled} >= ${p.add(from)}::numeric`];
  return [];
}

/** The types among COIN_TRANSFER, CONTRACT_INTERACTION, CONTRACT_CREATION as one condition (null: no condition). */
function typeCondition(types: string[] | null, value: string, to: string): string | null {
  const tx = (types ?? []).filter((t) => (TRANSACTION_TYPES as readonly string[]).includes(t));
  if (tx.length === 0 || tx.length === TRANSACTION_TYPES.length) return null;
  const parts = tx.map((t) =>
    t === "COIN_TRANSFER" ? `${value} > 0` : t === "CONTRACT_INTERACTION" ? isContract(to) : `${to} is null`,
  );
  return `(${parts.join(" or ")})`;
}

/** The block range of the age filter: the first block at or after `from`, the last at or before `to`. */
function ageConditions(p: Params, col: string, age: AdvancedFilters["age"]): string[] {
  const out: string[] = [];
  if (age.from)
    out.push(
      `${col} >= (select number from blocks where timestamp >= ${p.add(age.from)} order by timestamp limit 1)`,
    );
  if (age.to)
    out.push(
      `${col} <= (select number from blocks where timestamp <= ${p.add(age.to)} order by timestamp desc limit 1)`,
    );
  return out;
}

function transactionBranches(p: Params, f: AdvancedFilters, c: AdvancedFilterCursor | null): Branch[] | null {
  const where: string[] = [...ageConditions(p, "t.block_number", f.age)];
  if (c) where.push(`(t.block_number, t.index) < (${p.add(c.blockNumber)}, ${p.add(c.transactionIndex)})`);
  const type = typeCondition(f.transactionTypes, "t.value", "t.to_address");
  if (type) where.push(type);
  const amount = amountConditions(p, "t.value / 1000000000000000000", f.amount);
  if (amount === "none") return null;
  where.push(...amount);
  const access = addressAccess(p, "t.from_address", "t.to_address", f.from, f.to, f.relation);
  where.push(...access.filters);
  let drivers = access.drivers;
  if (f.methods) {
    if (drivers) where.push(txSelector("t.input", `= any(${p.add(f.methods.map(toBytea))}::bytea[])`));
    else drivers = f.methods.map((m) => [txSelector("t.input", `= ${p.add(toBytea(m))}`)]);
  }
  const order = "t.block_number desc, t.index desc";
  return (drivers ?? [[]]).map((d) => ({ from: "transactions t", where: [...d, ...where], order }));
}

/** Internal transactions: every frame but the top-level calls (they repeat their transaction). */
function internalBranches(p: Params, f: AdvancedFilters, c: AdvancedFilterCursor | null): Branch[] | null {
  const where: string[] = ["(i.type <> 'call' or i.index > 0)", ...ageConditions(p, "i.block_number", f.age)];
  if (c) {
    const bn = p.add(c.blockNumber);
    const ti = p.add(c.transactionIndex);
    // After a transaction or one of its transfers every frame of that transaction is still to come.
    where.push(
      c.internalIndex !== null
        ? `(i.block_number, i.transaction_index, i.index) < (${bn}, ${ti}, ${p.add(c.internalIndex)})`
        : `(i.block_number, i.transaction_index) <= (${bn}, ${ti})`,
    );
  }
  const type = typeCondition(f.transactionTypes, "i.value", "i.to_address");
  if (type) where.push(type);
  const amount = amountConditions(p, "i.value / 1000000000000000000", f.amount);
  if (amount === "none") return null;
  where.push(...amount);
  const access = addressAccess(p, "i.from_address", "i.to_address", f.from, f.to, f.relation);
  where.push(...access.filters);
  let drivers = access.drivers;
  if (f.methods) {
    if (drivers) where.push(`${selector("i.input")} = any(${p.add(f.methods.map(toBytea))}::bytea[])`);
    else drivers = f.methods.map((m) => [`${selector("i.input")} = ${p.add(toBytea(m))}`]);
  }
  const order = "i.block_number desc, i.transaction_index desc, i.index desc";
  return (drivers ?? [[]]).map((d) => ({ from: "internal_transactions i", where: [...d, ...where], order }));
}

/** The transaction index of the transfer `tt` (its log's row: a primary-key probe). */
const TRANSFER_TX_INDEX =
  "(select l.transaction_index from logs l where l.block_number = tt.block_number and l.log_index = tt.log_index)";

/**
 * Token transfers, ERC-1155 batches one row per id in the batch's order. The access path is, in this order, the
 * address include lists, the token include list (token_transfers_token_idx), the methods (their transactions by
 * selector, then the transactions' logs), else the primary key; every other filter is checked while scanning.
 */
function transferBranches(p: Params, f: AdvancedFilters, c: AdvancedFilterCursor | null): Branch[] | null {
  const where: string[] = [...ageConditions(p, "tt.block_number", f.age)];
  let joinToken = false;
  if (c) {
    const bn = p.add(c.blockNumber);
    if (c.transferIndex !== null) {
      const tti = p.add(c.transferIndex);
      // Blockscout's batch position counts down to 1 at the batch's last entry.
      const rev = p.add(c.transferBatchIndex ?? 1);
      where.push(
        `tt.block_number <= ${bn}`,
        `(tt.block_number < ${bn} or tt.log_index < ${tti} or (tt.log_index = ${tti} and tt.batch_index >
          (select count(*) from token_transfers z where z.block_number = ${bn} and z.log_index = ${tti}) - ${rev}))`,
      );
    } else {
      // After a transaction its transfers follow; after one of its frames, only earlier transactions' transfers.
      const op = c.internalIndex === null ? "<=" : "<";
      where.push(
        `tt.block_number <= ${bn}`,
        `(tt.block_number < ${bn} or ${TRANSFER_TX_INDEX} ${op} ${p.add(c.transactionIndex)})`,
      );
    }
  }
  const tokenTypes = (f.transactionTypes ?? []).filter(
    (t) => !(TRANSACTION_TYPES as readonly string[]).includes(t),
  );
  if (tokenTypes.length) {
    joinToken = true;
    where.push(`k.type = any(${p.add(tokenTypes)}::text[])`);
  }
  const amount = amountConditions(p, "tt.amount / power(10::numeric, coalesce(k.decimals, 0))", f.amount);
  if (amount === "none") return null;
  if (amount.length) joinToken = true;
  where.push(...amount);
  const access = addressAccess(p, "tt.from_address", "tt.to_address", f.from, f.to, f.relation);
  where.push(...access.filters);
  let drivers = access.drivers;
  // The token lists as Blockscout's filter_by_token reads them: include less exclude, else exclude; `native` apart.
  const tokens = inclusion(f.tokens.include, f.tokens.exclude);
  const contracts = (tokens?.addresses.filter((t) => t !== "native") ?? []) as Address[];
  if (tokens?.mode === "include" && contracts.length > 0) {
    if (drivers) where.push(`tt.token_address = any(${p.add(contracts.map(toBytea))}::bytea[])`);
    else drivers = contracts.map((t) => [`tt.token_address = ${p.add(toBytea(t))}`]);
  } else if (tokens?.mode === "exclude" && contracts.length > 0) {
    where.push(`tt.token_address <> all(${p.add(contracts.map(toBytea))}::bytea[])`);
  }
  const tokenJoin = joinToken ? " left join tokens k on k.address = tt.token_address" : "";
  const order = "tt.block_number desc, tt.log_index desc, tt.batch_index";
  if (f.methods && !drivers) {
    // Each method: its transactions newest first (transactions_method_idx), their logs, the transfers of those.
    return f.methods.map((m) => ({
      from: `transactions x join logs l on l.transaction_hash = x.hash
        join token_transfers tt on tt.block_number = l.block_number and tt.log_index = l.log_index${tokenJoin}`,
      where: [txSelector("x.input", `= ${p.add(toBytea(m))}`), ...where],
      order: "x.block_number desc, x.index desc, tt.log_index desc, tt.batch_index",
    }));
  }
  let from = `token_transfers tt${tokenJoin}`;
  if (f.methods) {
    from += " join transactions x on x.hash = tt.transaction_hash";
    where.push(txSelector("x.input", `= any(${p.add(f.methods.map(toBytea))}::bytea[])`));
  }
  return (drivers ?? [[]]).map((d) => ({ from, where: [...d, ...where], order }));
}

const SELECTS = {
  t: "0 as kind, t.block_number, t.index as transaction_index, 0 as sub_index, 0 as batch_index, t.hash as transaction_hash",
  i: "2 as kind, i.block_number, i.transaction_index, i.index as sub_index, 0 as batch_index, i.transaction_hash",
  tt: `1 as kind, tt.block_number, ${TRANSFER_TX_INDEX} as transaction_index, tt.log_index as sub_index,
    tt.batch_index, tt.transaction_hash`,
};

const FROM_FACTS = addressFactsJoin("af", "r.from_address");
const TO_FACTS = addressFactsJoin("at", "r.to_address");
const CREATED_FACTS = addressFactsJoin("ac", "r.created_address");
const IMPLEMENTATION = (col: string) => newestProxySql(col);

/** The view's facts: address objects of from, to and created, and whether the callee's ABI may decode the input. */
const FACT_COLUMNS = `case when p.kind = 2 then ${calleeVerifiedSql("i.to_address", IMPLEMENTATION("i.to_address"))}
    else ${calleeVerifiedSql("x.to_address", IMPLEMENTATION("x.to_address"))} end as callee_verified,
  ${FROM_FACTS.columns}, ${TO_FACTS.columns}, ${CREATED_FACTS.columns}`;
const FACT_JOINS = `${FROM_FACTS.join} ${TO_FACTS.join} ${CREATED_FACTS.join}`;
/** Without the view (CSV rows): only whether the recipient holds code, which decides the item's type. */
const CONTRACT_ONLY = `false as callee_verified, r.to_address is not null and ${isContract("r.to_address")} as at_is_contract`;

const ORDER = "block_number desc, transaction_index desc, kind, sub_index desc, batch_index";

/**
 * One page of the list (up to `limit` items after the cursor), newest first, each transaction followed by its token
 * transfers (log order, a batch in its own order) and then its internal transactions (depth-first order reversed),
 * as Blockscout lists them. Every range scan stops after `limit` rows, the scans are merged and cut, and the page's
 * rows are completed (transaction, block, frame or transfer, token, address facts) by primary-key probes: the cost
 * of a page does not depend on its depth.
 */
export async function advancedFilterPage(
  db: Queryable,
  f: AdvancedFilters,
  cursor: AdvancedFilterCursor | null,
  limit: number,
  o: { facts?: boolean } = {},
): Promise<AdvancedFilterRow[]> {
  const p = new Params();
  const facts = o.facts ?? true;
  const which = sources(f);
  const branches: Array<{ alias: keyof typeof SELECTS; b: Branch }> = [];
  if (which.transactions) {
    for (const b of transactionBranches(p, f, cursor) ?? []) branches.push({ alias: "t", b });
    for (const b of internalBranches(p, f, cursor) ?? []) branches.push({ alias: "i", b });
  }
  if (which.transfers)
    for (const b of transferBranches(p, f, cursor) ?? []) branches.push({ alias: "tt", b });
  if (!branches.length) return [];
  const l = p.add(limit);
  const union = branches
    .map(
      ({ alias, b }) =>
        `(select ${SELECTS[alias]} from ${b.from}${b.where.length ? ` where ${b.where.join(" and ")}` : ""}
          order by ${b.order} limit ${l})`,
    )
    .join(" union ");
  return db.query<AdvancedFilterRow>(
    `with page as (select * from (${union}) u order by ${ORDER} limit ${l})
     select p.kind, p.block_number, p.transaction_index, p.sub_index, p.batch_index,
       case when p.kind = 1 then (select count(*) from token_transfers z
         where z.block_number = p.block_number and z.log_index = p.sub_index) end as batch_count,
       x.hash, b.timestamp, x.status, f.error,
       coalesce(x.gas_price, x.effective_gas_price)::text as price, x.gas_used::text as tx_gas_used,
       x.input as tx_input, x.to_address as tx_to, r.from_address, r.to_address, r.created_address,
       (case p.kind when 0 then x.value when 2 then i.value end)::text as value,
       i.input as frame_input, i.gas_used::text as frame_gas_used,
       tt.token_address, tt.token_id::text as token_id, tt.amount::text as amount, ${TOKEN_COLUMNS},
       ${facts ? FACT_COLUMNS : CONTRACT_ONLY}
     from page p
     join transactions x on x.hash = p.transaction_hash
     join blocks b on b.number = p.block_number
     left join internal_transactions f on f.block_number = p.block_number
       and f.transaction_index = p.transaction_index and f.index = 0
     left join internal_transactions i on p.kind = 2 and i.block_number = p.block_number
       and i.transaction_index = p.transaction_index and i.index = p.sub_index
     left join token_transfers tt on p.kind = 1 and tt.block_number = p.block_number
       and tt.log_index = p.sub_index and tt.batch_index = p.batch_index
     left join tokens t on t.address = tt.token_address
     cross join lateral (select
       case p.kind when 0 then x.from_address when 1 then tt.from_address else i.from_address end as from_address,
       case p.kind when 0 then x.to_address when 1 then tt.to_address else i.to_address end as to_address,
       case p.kind when 0 then x.contract_address when 2 then i.created_contract_address end as created_address) r
     ${facts ? FACT_JOINS : ""}
     order by p.${ORDER.replaceAll(", ", ", p.")}`,
    p.values,
  );
}

/** Tokens by address (the response's search_params.tokens): primary-key probes. */
export function tokensByAddress(
  db: Queryable,
  addresses: readonly Address[],
): Promise<Array<TokenColumns & { address: Uint8Array }>> {
  return db.query(`select t.address, ${TOKEN_COLUMNS} from tokens t where t.address = any($1::bytea[])`, [
    addresses.map(toBytea),
  ]);
}

/** A verified ABI with a function of exactly this name (jsonb containment on verified_compilations_abi_idx). */
export async function verifiedFunctionByName(
  db: Queryable,
  name: string,
): Promise<{ name: string; inputs?: unknown[] } | null> {
  const rows = await db.query<{ item: { name: string; inputs?: unknown[] } }>(
    `select e as item from (select abi from verified_compilations where abi @> $1::jsonb limit 1) c,
       jsonb_array_elements(c.abi) e where e->>'type' = 'function' and e->>'name' = $2 limit 1`,
    [JSON.stringify([{ type: "function", name }]), name],
  );
  return rows[0]?.item ?? null;
}
