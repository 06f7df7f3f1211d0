-- Coin balance history: one row per (address, block) where the address's native balance changed in that block.
-- A row carries everything a page of GET /api/v2/addresses/{hash}/coin-balance-history shows (value, delta,
-- transaction hash, block time), so a page is one range scan of the primary key, whatever the history's length
-- and however deep the cursor: no window function over the history, no join.
create table coin_balance_changes (
  address           bytea not null,
  block_number      int8 not null,
  -- Exact balance at the end of the block (wei).
  value             numeric not null,
  -- value minus the balance at the end of block_number - 1; never 0 (unchanged balances are not stored).
  delta             numeric not null,
  -- The last transaction of the block that changed the balance; null when none did (reward, withdrawal, genesis).
  transaction_hash  bytea,
  block_timestamp   timestamptz not null,
  primary key (address, block_number)
);
-- Reorganisations delete "where block_number > ancestor", near the tip. Rows arrive in block order, so a BRIN
-- index finds them at a fraction of a btree's size and write cost. A btree here also tempted the planner to walk
-- it backwards for a busy address's page (filtering out other addresses' rows); BRIN cannot give that order, so a
-- page always is the primary-key range scan.
create index coin_balance_changes_block_idx on coin_balance_changes using brin (block_number);
