-- Issue 35: a day's active accounts are the (day, sender) pairs themselves. The per-pair transaction count existed
-- only so that a reorg could tell when a sender's last transaction of a day went; a reorg now asks the sender index
-- of `transactions` instead (src/indexer/stages/stats/sql.ts). Keeping the count cost every batch one new row
-- version per sender (an update of each known pair) and a read of the pairs before writing them.
alter table daily_active_accounts drop column transactions;
