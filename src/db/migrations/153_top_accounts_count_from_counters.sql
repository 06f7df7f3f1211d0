-- Issue 35: /addresses?sort=transactions_count reads the count where the counters stage keeps it. Before, every
-- balance row carried a copy of address_counters.transactions_count with two indexes on it, so each batch wrote a
-- second version of the balance row of every address whose count it changed (with all six of its index entries).
-- Now the count orders walk one index of address_counters and read each balance by primary key (value > 0); ties of
-- the count go by hash in the scan's direction, not by balance (the balance lives in another table).
alter table address_coin_balances drop column transactions_count;
-- The count orders list every address with a positive balance: an address that only a recorded balance shows
-- (a dev node's funded accounts) gets a counters row of zeros, as the counters stage now writes for new ones.
insert into address_counters (address) select address from address_coin_balances on conflict do nothing;
-- Descending count, then hash (a forward scan: /addresses?sort=transactions_count&order=desc); the ascending order
-- is the backward scan of the same index.
create index address_counters_transactions_idx on address_counters ((-transactions_count), address);
