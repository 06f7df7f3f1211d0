import { byBlock } from "../balance-changes-by-block.js";
import { statementVariants } from "../statement-variants.js";

/**
 * The counter deltas of a block range, computed in SQL from the rows the range's blocks produced. Writing a
 * batch adds them (after every table of the batch is written); a reorg subtracts them (before any of the
 * reverted rows is deleted). The same text both ways keeps the two sides exact mirrors of each other.
 * $1 < block_number <= $2.
 */
const inRange = (column: string) => `${column} > $1 and ${column} <= $2`;

/**
 * Which tables can have rows of a batch's blocks (all of them when it is not known: a backfill, a revert). A table
 * known to have none is left out of the statements, which cost less to plan (most of their time for a quiet chain's
 * block) and give the same sums. `logs` covers the token transfers too; `creations` the transactions' own.
 */
export type RowSources = {
  transactions: boolean;
  creations: boolean;
  logs: boolean;
  internals: boolean;
  withdrawals: boolean;
};
export const ALL_ROWS: RowSources = {
  transactions: true,
  creations: true,
  logs: true,
  internals: true,
  withdrawals: true,
};

/**
 * One row per (address, kind of fact) in the range: the counters it adds and the block it was seen in. Meanings are
 * Blockscout's (Explorer.Chain.Address.Counters):
 * - transactions: sent or received (`from` or `to`); a contract's count is then the transactions to it, as
 *   Blockscout counts for a contract (`where_transactions_to_from`): its own creation is not one of them, so the
 *   created contract gets `created` instead (it is still seen in that block);
 * - gas: used by the transactions the address sent (`gas`) and by those it received (`gas_in`): Blockscout's gas
 *   usage is the incoming sum for a contract, the outgoing one otherwise (address-counters/view.ts picks);
 * - token transfers: token_transfers rows as Blockscout keeps them, one per log (an ERC-1155 batch is one, though
 *   Lookout stores one row per id: its first, `batch_index = 0`, stands for the log);
 * - internal transactions: every frame except a transaction's top-level call (the transaction itself).
 */
const addressFacts = (from: RowSources) =>
  [
    // First, as it is always there: its names and types are the union's.
    `
  select miner as address, number as block, 0 as txs, 0 as created, 0 as transfers, 0::numeric as gas,
         0::numeric as gas_in, 1 as validations, 0 as internals, 0 as logs, 0 as withdrawals
  from blocks where ${inRange("number")}`,
    // One read of the transactions: the sender's row (a transaction, its gas) and the recipient's (a transaction
    // unless it is the sender, the gas it received), a creation's null recipient dropped.
    ...(from.transactions
      ? [
          `
  select v.a, t.block_number, v.txs, 0, 0, v.gas, v.gas_in, 0, 0, 0, 0
  from transactions t cross join lateral (values
    (t.from_address, 1, t.gas_used, 0::numeric),
    (t.to_address, (t.to_address is distinct from t.from_address)::int, 0::numeric, t.gas_used)
  ) as v(a, txs, gas, gas_in)
  where ${inRange("t.block_number")} and v.a is not null`,
        ]
      : []),
    ...(from.transactions && from.creations
      ? [
          `
  select contract_address, block_number, 0, 1, 0, 0, 0, 0, 0, 0, 0 from transactions
  where ${inRange("block_number")} and contract_address is not null and status is distinct from 0`,
        ]
      : []),
    ...(from.logs
      ? [
          `
  select v.a, x.block_number, 0, 0, v.n, 0, 0, 0, 0, 0, 0
  from token_transfers x cross join lateral (values
    (x.from_address, 1), (x.to_address, (x.to_address is distinct from x.from_address)::int)) as v(a, n)
  where ${inRange("x.block_number")} and x.batch_index = 0`,
          `
  select address, block_number, 0, 0, 0, 0, 0, 0, 0, 1, 0 from logs where ${inRange("block_number")}`,
        ]
      : []),
    ...(from.internals
      ? [
          `
  select v.a, x.block_number, 0, 0, 0, 0, 0, 0, v.n, 0, 0
  from internal_transactions x cross join lateral (values
    (x.from_address, 1),
    (x.to_address, (x.to_address is distinct from x.from_address)::int),
    (x.created_contract_address, (x.created_contract_address is distinct from x.from_address
      and x.created_contract_address is distinct from x.to_address)::int)) as v(a, n)
  where ${inRange("x.block_number")} and (x.type <> 'call' or x.index > 0) and v.a is not null`,
        ]
      : []),
    ...(from.withdrawals
      ? [
          `
  select address, block_number, 0, 0, 0, 0, 0, 0, 0, 0, 1 from withdrawals where ${inRange("block_number")}`,
        ]
      : []),
  ].join("\n  union all");

const COUNTER_COLUMNS = [
  ["transactions_count", "txs"],
  ["created_count", "created"],
  ["token_transfers_count", "transfers"],
  ["gas_used", "gas"],
  ["gas_used_incoming", "gas_in"],
  ["validations_count", "validations"],
  ["internal_transactions_count", "internals"],
  ["logs_count", "logs"],
  ["withdrawals_count", "withdrawals"],
] as const;

/**
 * An address whose coin balance changed in the range is seen there (a development node's funded accounts get theirs
 * at genesis, before any transaction), with no counter of its own: it still gets its counters row, all zeros, so
 * every address with a balance has one and `/addresses?sort=transactions_count` finds it in address_counters' count
 * index (src/explorer/top-account/query.ts). A reorg keeps such a row while the address has a balance change left.
 */
const BALANCE_SIGHTINGS = `
  select address, block_number, 0, 0, 0, 0, 0, 0, 0, 0, 0 from coin_balance_changes
  where ${inRange("block_number")} and ${byBlock()}`;

/** The range's address facts and its balance sightings: each address the range shows, with what it adds. */
const facts = (from: RowSources) => `${addressFacts(from)}
  union all${BALANCE_SIGHTINGS}`;

/**
 * Per address, the sums of its facts in the range and its least block there: what `ADD_COUNTERS_FROM_FACTS` is
 * given (carry.ts), read from the stored rows (the reference its tests compare with).
 */
export const SUMMED_ADDRESS_FACTS = `
  with facts as (${facts(ALL_ROWS)})
  select address, ${COUNTER_COLUMNS.map(([, f]) => `sum(${f})::text as ${f}`).join(", ")}, min(block) as block
  from facts group by address`;

/** Upsert of the per-address deltas of `facts` times $3 (1 or -1); `onlyChanged`: no new row version for zeros. */
const upsertFromFacts = (onlyChanged: boolean) => `
  insert into address_counters (address, ${COUNTER_COLUMNS.map(([c]) => c).join(", ")})
  select address, ${COUNTER_COLUMNS.map(([, f]) => `$3::int * sum(${f})`).join(", ")}
  from facts group by address
  on conflict (address) do update set
    ${COUNTER_COLUMNS.map(([c]) => `${c} = address_counters.${c} + excluded.${c}`).join(",\n    ")}${
      onlyChanged ? `\n  where ${COUNTER_COLUMNS.map(([c]) => `excluded.${c} <> 0`).join(" or ")}` : ""
    }`;

/**
 * Writing a batch ($3 = 1): the facts are gathered once and feed both the per-address counters and the first
 * sightings (`addresses`), whose number of new rows goes to the 'addresses' chain counter. An address whose coin
 * balance was recorded is seen too, so the home page counts every address the top-accounts list can show. The first
 * block is the least seen (history written after the head, head first, lowers it); only new rows count. One
 * statement (PostgreSQL runs a data-modifying WITH part exactly once whether or not the main query reads it).
 *
 * The balance rows carry no copy of the transaction count (migration 153): the count orders of the top-accounts list
 * read address_counters' own index, so a batch writes one row version per address here and one per changed balance
 * in the balances stage, not a second version of each balance row whose count changed.
 */
const ADDRESS_FACTS_PARTS = (factsSql: string, history: boolean) => `
  facts as (${factsSql}),
  counted as (${upsertFromFacts(true)}),
  added as (
    insert into addresses (address, first_block)
    select address, min(block) from facts group by address
    ${
      history
        ? `on conflict (address) do update set first_block = excluded.first_block
      where excluded.first_block < addresses.first_block
    returning xmax = 0 as inserted`
        : "on conflict (address) do nothing\n    returning true as inserted"
    }),
  seen as (
    insert into chain_counters (name, value)
    select 'addresses', count(*) filter (where inserted) from added
    on conflict (name) do update set value = chain_counters.value + excluded.value)`;

/**
 * Reverting ($3 = -1): subtracts, and returns the addresses whose counters all reached 0 (every one the reverted
 * blocks showed is returned, balance sightings included).
 */
export const SUBTRACT_ADDRESS_FACTS = `
  with facts as (${facts(ALL_ROWS)}),
  counted as (${upsertFromFacts(false)}
    returning address,
      (${COUNTER_COLUMNS.map(([c]) => `address_counters.${c} = 0`).join(" and ")}) as empty)
  select address, empty from counted`;

/**
 * Of the addresses `SUBTRACT_ADDRESS_FACTS` left at zero ($1), those a clean index of the blocks up to the ancestor
 * ($2) has no row for: none of their facts is left (all counters 0) and no balance change either. The balances stage
 * is reverted after this one, so its rows above the ancestor are still there and are left out by block.
 */
export const DELETE_EMPTY_COUNTERS = `
  delete from address_counters n where n.address = any($1::bytea[])
    and not exists (select 1 from coin_balance_changes b where b.address = n.address and b.block_number <= $2)`;

/**
 * Chain-wide deltas of the range times $3 ('withdrawals_sum' in wei, for /withdrawals/counters). `carried`: the
 * counts of the range's transactions, token transfers, internal transactions and logs are $15 ... $18 (carry.ts
 * `RowCounts`), not read back from those tables.
 */
const upsertChainCounters = (from: RowSources, carried = false) => {
  const of = (has: boolean, sql: string) => (has ? `(${sql})` : "0");
  const count = (param: number, has: boolean, sql: string) => (carried ? `$${param}::int8` : of(has, sql));
  return `
  insert into chain_counters (name, value)
  select name, $3::int * v from (values
    ('blocks', (select count(*) from blocks where ${inRange("number")})),
    ('transactions', ${count(15, from.transactions, `select count(*) from transactions where ${inRange("block_number")}`)}),
    ('gas_used', (select coalesce(sum(gas_used), 0) from blocks where ${inRange("number")})),
    ('token_transfers', ${count(16, from.logs, `select count(*) from token_transfers where ${inRange("block_number")}`)}),
    ('internal_transactions', ${count(
      17,
      from.internals,
      `select count(*) from internal_transactions
       where ${inRange("block_number")} and (type <> 'call' or index > 0)`,
    )}),
    ('logs', ${count(18, from.logs, `select count(*) from logs where ${inRange("block_number")}`)}),
    ('withdrawals', ${of(from.withdrawals, `select count(*) from withdrawals where ${inRange("block_number")}`)}),
    ('withdrawals_sum', ${of(
      from.withdrawals,
      `select coalesce(sum(amount), 0) from withdrawals where ${inRange("block_number")}`,
    )})
  ) as d(name, v)
  on conflict (name) do update set value = chain_counters.value + excluded.value`;
};
export const UPSERT_CHAIN_COUNTERS = upsertChainCounters(ALL_ROWS);

/**
 * Per UTC day of the range's blocks, their count, transactions, gas used and fees times $3 (the daily stats of
 * /stats/charts/transactions, /stats and stats&action=totalfees).
 */
const upsertDailyCounters = `
  insert into daily_counters (day, blocks, transactions, gas_used, fees)
  select (timestamp at time zone 'UTC')::date, $3::int * count(*), $3::int * sum(transaction_count),
         $3::int * sum(gas_used), $3::int * coalesce(sum(transaction_fees), 0)
  from blocks where ${inRange("number")}
  group by 1
  on conflict (day) do update set blocks = daily_counters.blocks + excluded.blocks,
    transactions = daily_counters.transactions + excluded.transactions,
    gas_used = daily_counters.gas_used + excluded.gas_used,
    fees = daily_counters.fees + excluded.fees`;

/** Reverting: the same, returning the days left without blocks. */
export const UPSERT_DAILY_COUNTERS = `${upsertDailyCounters}
  returning day::text as day, blocks = 0 as empty`;

/**
 * Writing a batch ($3 = 1), in one statement (one round trip): the address facts, the chain counters and the day
 * counters, with only the tables the batch can have rows in. Its parts write different rows (chain_counters:
 * 'addresses' apart from the rest) and read none another part writes.
 *
 * `history`: the batch may be older than blocks already written (head first, or a one-off backfill), so a known
 * address's first block can still move down. In order it cannot (every row left above the checkpoint was
 * reverted), and a known address is left alone: a conflict that updates nothing still locks its row, a heap write
 * and a WAL record for each of the batch's thousands of known addresses.
 */
export const addCountersOf = statementVariants(
  ({ history, ...from }: RowSources & { history: boolean }) => `
  with ${ADDRESS_FACTS_PARTS(facts(from), history)},
  days as (${upsertDailyCounters})
  ${upsertChainCounters(from)}`,
);

/**
 * Writing committed blocks ($3 = 1) whose address facts and row counts were summed in memory from the batches
 * themselves (carry.ts): the same statement with `facts` read from the arrays $4 ... $14 (one row per address, its
 * sums and least block) instead of from the blocks' rows, and the chain counters' row counts from $15 ... $18; the
 * day counters, the blocks' count and gas and the withdrawals from a read of the range's blocks and withdrawals, as
 * before. In order (a trailing write): a known address's first block stays.
 */
export const ADD_COUNTERS_FROM_FACTS = `
  with ${ADDRESS_FACTS_PARTS(
    `select address, block, txs, created, transfers, gas, gas_in, validations, internals, logs, withdrawals
    from unnest($4::bytea[], $5::int4[], $6::int4[], $7::int4[], $8::int4[], $9::int4[], $10::int4[], $11::int4[],
      $12::numeric[], $13::numeric[], $14::int8[])
      as f(address, txs, created, transfers, validations, internals, logs, withdrawals, gas, gas_in, block)`,
    false,
  )},
  days as (${upsertDailyCounters})
  ${upsertChainCounters(ALL_ROWS, true)}`;

/** Addresses first seen above the ancestor are forgotten (seen again when their blocks come back). */
export const DELETE_ADDRESSES = `
  with gone as (delete from addresses where first_block > $1 returning 1)
  insert into chain_counters (name, value) values ('addresses', -(select count(*) from gone))
  on conflict (name) do update set value = chain_counters.value + excluded.value`;
