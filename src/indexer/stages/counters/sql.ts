/**
 * The counter deltas of a block range, computed in SQL from the rows the range's blocks produced. Writing a
 * batch adds them (after every table of the batch is written); a reorg subtracts them (before any of the
 * reverted rows is deleted). The same text both ways keeps the two sides exact mirrors of each other.
 * $1 < block_number <= $2.
 */
const inRange = (column: string) => `${column} > $1 and ${column} <= $2`;

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
export const ADDRESS_FACTS = `
  select u.a as address, t.block_number as block, 1 as txs, 0 as created, 0 as transfers, 0::numeric as gas,
         0::numeric as gas_in, 0 as validations, 0 as internals, 0 as logs, 0 as withdrawals
  from transactions t,
    lateral (select distinct a from unnest(array[t.from_address, t.to_address]) a where a is not null) u
  where ${inRange("t.block_number")}
  union all
  select contract_address, block_number, 0, 1, 0, 0, 0, 0, 0, 0, 0 from transactions
  where ${inRange("block_number")} and contract_address is not null and status is distinct from 0
  union all
  select from_address, block_number, 0, 0, 0, gas_used, 0, 0, 0, 0, 0 from transactions where ${inRange("block_number")}
  union all
  select to_address, block_number, 0, 0, 0, 0, gas_used, 0, 0, 0, 0 from transactions
  where ${inRange("block_number")} and to_address is not null
  union all
  select miner, number, 0, 0, 0, 0, 0, 1, 0, 0, 0 from blocks where ${inRange("number")}
  union all
  select u.a, x.block_number, 0, 0, 1, 0, 0, 0, 0, 0, 0
  from token_transfers x, lateral (select distinct a from unnest(array[x.from_address, x.to_address]) a) u
  where ${inRange("x.block_number")} and x.batch_index = 0
  union all
  select u.a, x.block_number, 0, 0, 0, 0, 0, 0, 1, 0, 0
  from internal_transactions x,
    lateral (select distinct a from unnest(array[x.from_address, x.to_address, x.created_contract_address]) a
             where a is not null) u
  where ${inRange("x.block_number")} and (x.type <> 'call' or x.index > 0)
  union all
  select address, block_number, 0, 0, 0, 0, 0, 0, 0, 1, 0 from logs where ${inRange("block_number")}
  union all
  select address, block_number, 0, 0, 0, 0, 0, 0, 0, 0, 1 from withdrawals where ${inRange("block_number")}`;

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

/** Upsert of the per-address deltas of `facts` times $3 (1 or -1). */
const UPSERT_FROM_FACTS = `
  insert into address_counters (address, ${COUNTER_COLUMNS.map(([c]) => c).join(", ")})
  select address, ${COUNTER_COLUMNS.map(([, f]) => `$3::int * sum(${f})`).join(", ")}
  from facts group by address
  on conflict (address) do update set
    ${COUNTER_COLUMNS.map(([c]) => `${c} = address_counters.${c} + excluded.${c}`).join(",\n    ")}`;

/**
 * The top-accounts list sorts by transaction count from its own table (an index beside the balance): the counts
 * just changed (`counted`: address, transactions_count) are copied to the rows of addresses that have a balance.
 */
const SYNC_BALANCE_ROWS = `
  update address_coin_balances b set transactions_count = c.transactions_count
  from counted c where b.address = c.address and b.transactions_count <> c.transactions_count
  returning 1`;

/**
 * Writing a batch ($3 = 1): the facts are gathered once and feed both the per-address counters and the first
 * sightings (`addresses`), whose number of new rows goes to the 'addresses' chain counter. An address whose coin
 * balance was recorded is seen too (a development node's funded accounts get theirs at genesis, before any
 * transaction), so the home page counts every address the top-accounts list can show. One statement (PostgreSQL
 * runs a data-modifying WITH part exactly once whether or not the main query reads it).
 */
export const ADD_ADDRESS_FACTS = `
  with facts as (${ADDRESS_FACTS}),
  counted as (${UPSERT_FROM_FACTS} returning address, transactions_count),
  synced as (${SYNC_BALANCE_ROWS}),
  added as (
    insert into addresses (address, first_block)
    select address, min(block) from (
      select address, block from facts
      union all
      select address, block_number from coin_balance_changes where ${inRange("block_number")}) seen
    group by address
    on conflict (address) do nothing
    returning 1)
  insert into chain_counters (name, value)
  select 'addresses', count(*) from added
  on conflict (name) do update set value = chain_counters.value + excluded.value`;

/** Reverting ($3 = -1): subtracts, and returns the addresses whose counters all reached 0. */
export const SUBTRACT_ADDRESS_FACTS = `
  with facts as (${ADDRESS_FACTS}),
  counted as (${UPSERT_FROM_FACTS}
    returning address, transactions_count,
      (${COUNTER_COLUMNS.map(([c]) => `address_counters.${c} = 0`).join(" and ")}) as empty),
  synced as (${SYNC_BALANCE_ROWS})
  select address, empty from counted`;

/** Chain-wide deltas of the range times $3 ('withdrawals_sum' in wei, for /withdrawals/counters). */
export const UPSERT_CHAIN_COUNTERS = `
  insert into chain_counters (name, value)
  select name, $3::int * v from (values
    ('blocks', (select count(*) from blocks where ${inRange("number")})),
    ('transactions', (select count(*) from transactions where ${inRange("block_number")})),
    ('gas_used', (select coalesce(sum(gas_used), 0) from blocks where ${inRange("number")})),
    ('token_transfers', (select count(*) from token_transfers where ${inRange("block_number")})),
    ('internal_transactions', (select count(*) from internal_transactions
       where ${inRange("block_number")} and (type <> 'call' or index > 0))),
    ('logs', (select count(*) from logs where ${inRange("block_number")})),
    ('withdrawals', (select count(*) from withdrawals where ${inRange("block_number")})),
    ('withdrawals_sum', (select coalesce(sum(amount), 0) from withdrawals where ${inRange("block_number")}))
  ) as d(name, v)
  on conflict (name) do update set value = chain_counters.value + excluded.value`;

/**
 * Per UTC day of the range's blocks, their count, transactions, gas used and fees times $3 (the daily stats of
 * /stats/charts/transactions, /stats and stats&action=totalfees). Returns the days left without blocks (after a
 * revert).
 */
export const UPSERT_DAILY_COUNTERS = `
  insert into daily_counters (day, blocks, transactions, gas_used, fees)
  select (timestamp at time zone 'UTC')::date, $3::int * count(*), $3::int * sum(transaction_count),
         $3::int * sum(gas_used), $3::int * coalesce(sum(transaction_fees), 0)
  from blocks where ${inRange("number")}
  group by 1
  on conflict (day) do update set blocks = daily_counters.blocks + excluded.blocks,
    transactions = daily_counters.transactions + excluded.transactions,
    gas_used = daily_counters.gas_used + excluded.gas_used,
    fees = daily_counters.fees + excluded.fees
  returning day::text as day, blocks = 0 as empty`;

/** Addresses first seen above the ancestor are forgotten (seen again when their blocks come back). */
export const DELETE_ADDRESSES = `
  with gone as (delete from addresses where first_block > $1 returning 1)
  insert into chain_counters (name, value) values ('addresses', -(select count(*) from gone))
  on conflict (name) do update set value = chain_counters.value + excluded.value`;
