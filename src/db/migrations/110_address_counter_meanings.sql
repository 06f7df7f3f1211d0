-- Address counters mean what Blockscout's mean (Explorer.Chain.Address.Counters; issue 29, D2 and D6):
-- - transactions_count no longer counts the transaction that created the address: a contract's count is the
--   transactions to it. The creations move to created_count (the address is still seen, and its row kept, by them).
-- - gas_used_incoming: gas used by the transactions the address received (a contract's gas usage).
-- - token_transfers_count counts one per log: an ERC-1155 batch is one transfer, not one per id.
-- The counters stage keeps them from here on; an index that has counters gets today's values once.
alter table address_counters add column created_count int8 not null default 0;
alter table address_counters add column gas_used_incoming numeric not null default 0;

update address_counters c
set created_count = n.n, transactions_count = c.transactions_count - n.n
from (select contract_address as address, count(*) as n from transactions
      where contract_address is not null and status is distinct from 0
        and contract_address <> from_address and contract_address is distinct from to_address
      group by contract_address) n
where c.address = n.address;

update address_counters c
set gas_used_incoming = g.gas
from (select to_address as address, sum(gas_used) as gas from transactions
      where to_address is not null group by to_address) g
where c.address = g.address;

update address_counters c
set token_transfers_count = c.token_transfers_count - n.n
from (select u.a as address, count(*) as n
      from token_transfers x, lateral (select distinct a from unnest(array[x.from_address, x.to_address]) a) u
      where x.batch_index > 0 group by u.a) n
where c.address = n.address;
