-- Issue 35: every balance a batch changes is a new row version of address_coin_balances with an entry in each of
-- its indexes. The one on block_number served only a reorg's delete of the balances set above the ancestor; that
-- delete now takes the addresses from the reverted balance changes and finds their rows by primary key
-- (src/indexer/stages/balances/store.ts), so a batch writes one index entry fewer per changed balance.
drop index if exists address_coin_balances_block_idx;
