-- Issue 35: every batch reads its own coin balance changes by block range (the counters stage's balance sightings,
-- the stats stage's balance steps) and a reorganisation deletes them by block range. Migration 002 served those
-- reads with a BRIN index, whose page ranges are summarised only by VACUUM: everything written since the last one
-- is read whole by each of them. On PostgreSQL that tail grows with the table (an insert-only table is vacuumed
-- after growing by a fifth), so a batch's read grew with the history; PGlite never vacuums, so there every batch
-- read the whole table.
--
-- A btree on block_number serves those reads exactly. It is partial on `delta <> 0`, which every row meets
-- (unchanged balances are not stored), so only statements that say so can use it: the range reads do; an
-- address's pages (address = $1, newest first) never do, and keep to the primary key instead of walking the
-- chain's blocks backwards for one address's rows, which a plain btree on block_number tempted the planner to do.
-- Appended in block order, the index grows at its right edge.
create index coin_balance_changes_block_rows_idx on coin_balance_changes (block_number) where delta <> 0;
drop index coin_balance_changes_block_idx;
