-- Current native balance of every address that has a balance change: the top-accounts list (GET /api/v2/addresses)
-- pages it richest first by (value desc, address), one index range scan per page however deep the cursor.
-- Kept with coin_balance_changes in the batch transaction (the row of the address's latest changed block) and
-- recomputed from coin_balance_changes for the addresses a reorganisation touches.
create table address_coin_balances (
  address      bytea primary key,
  value        numeric not null,
  block_number int8 not null
);
create index address_coin_balances_value_idx on address_coin_balances (value desc, address);
-- Rows moved with reorgs: those above the common ancestor are recomputed.
create index address_coin_balances_block_idx on address_coin_balances (block_number);

insert into address_coin_balances (address, value, block_number)
  select distinct on (address) address, value, block_number
  from coin_balance_changes
  order by address, block_number desc;
