-- Blockscout's sort orders of the explorer's lists, each served by an index (a page is a range scan from the cursor).

-- /addresses/{h}/transactions?sort=value|fee: per side (sender, recipient), the key then the list's key, all
-- ascending. order=desc is one backward range scan; order=asc (ties newest first, as Blockscout) walks the keys
-- upwards and reads each key's transactions backwards (src/explorer/transaction/address-query.ts). The fee is
-- the one the views show (price paid x gas used); a missing price sorts as -1, below every fee (Blockscout's
-- nulls first ascending, last descending).
create index transactions_from_value_idx on transactions (from_address, value, block_number, index);
create index transactions_to_value_idx on transactions (to_address, value, block_number, index)
  where to_address is not null;
create index transactions_from_fee_idx on transactions
  (from_address, (coalesce(coalesce(gas_price, effective_gas_price) * gas_used, -1)), block_number, index);
create index transactions_to_fee_idx on transactions
  (to_address, (coalesce(coalesce(gas_price, effective_gas_price) * gas_used, -1)), block_number, index)
  where to_address is not null;

-- /tokens?sort=holders_count&order=asc: holders ascending, then name (nulls last) and address as the default order.
create index tokens_list_holders_asc_idx on tokens (holders_count, (name is null), (coalesce(name, '')), address);

-- /addresses?sort=…: the transaction count beside the balance (the counters stage keeps it equal to
-- address_counters.transactions_count), so each order is one index whose keys all ascend (a page is one range scan
-- from the cursor's row): balance either way (then hash), and the count either way (then balance descending,
-- hash), as Blockscout orders them. The balance-descending one replaces 085's (value desc, address), on which the
-- cursor was no index condition.
alter table address_coin_balances add column transactions_count int8 not null default 0;
update address_coin_balances b set transactions_count = c.transactions_count
  from address_counters c where c.address = b.address;
drop index address_coin_balances_value_idx;
create index address_coin_balances_value_desc_idx on address_coin_balances ((-value), address) where value > 0;
create index address_coin_balances_value_asc_idx on address_coin_balances (value, address) where value > 0;
create index address_coin_balances_txs_asc_idx on address_coin_balances (transactions_count, (-value), address)
  where value > 0;
create index address_coin_balances_txs_desc_idx on address_coin_balances
  ((-transactions_count), (-value), address) where value > 0;
