-- The charts of Blockscout's stats service (served at /stats-service/api/v1), kept per UTC day by the indexer's
-- stats stage beside daily_counters (blocks, transactions, gas used, fees), so no chart counts rows per request:
--   daily_stats            per day of the block timestamps: what the charts divide or add beyond daily_counters;
--   daily_active_accounts  (day, sender) with the sender's transactions that day: a day's active accounts are
--                          its rows; kept as a count so a reorg takes a sender off a day only with its last
--                          transaction of that day;
--   stats_accounts         every sender with the block of its first transaction (new accounts per day, the
--                          accounts' growth), as `addresses` keeps first sightings.
-- A day has a daily_stats row when it has a block, as daily_counters.
create table daily_stats (
  day                      date primary key,
  blocks                   int8 not null default 0,
  successful_transactions  int8 not null default 0,
  -- Transactions less the OP stack's L1 attributes deposits (the service's "operational" transactions).
  operational_transactions int8 not null default 0,
  gas_limit                numeric not null default 0,
  -- The price each transaction paid per gas (effective price, wei), summed over those that give one.
  gas_price_sum            numeric not null default 0,
  priced_transactions      int8 not null default 0,
  block_size               numeric not null default 0,
  sized_blocks             int8 not null default 0,
  native_transfers         int8 not null default 0,
  contracts                int8 not null default 0,
  authorizations           int8 not null default 0,
  rewards                  numeric not null default 0,
  rewarded_blocks          int8 not null default 0,
  new_accounts             int8 not null default 0,
  active_accounts          int8 not null default 0
);

create table daily_active_accounts (
  day          date not null,
  address      bytea not null,
  transactions int8 not null,
  primary key (day, address)
);

create table stats_accounts (
  address     bytea primary key,
  first_block int8 not null
);
-- A reorganisation forgets the senders first seen above the common ancestor.
create index stats_accounts_first_block_idx on stats_accounts (first_block);
