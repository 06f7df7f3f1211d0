-- /api/v2/stats/hot-smart-contracts: transactions and gas used per recipient, kept by the indexer's hot-contracts
-- stage per time slot, so a page sums a few slot rows per contract instead of grouping the transactions table
-- (Blockscout groups its transactions per request for 5m/1h/3h and keeps days in hot_smart_contracts_daily).
--   granularity  60 (minute slots: the 5m, 1h and 3h scales) or 86400 (UTC days: 1d, 7d, 30d)
--   slot         the block timestamp's epoch seconds divided by the granularity
-- Every recipient is kept (contract or not): a recipient's contract-ness can change after its transactions are
-- written, so the page filters contracts when it reads, and a reorg subtracts exactly what was added.
-- Minute slots older than three hours before a batch's newest block are dropped by the stage.
create table hot_contracts (
  granularity  int4 not null,
  slot         int8 not null,
  address      bytea not null,
  transactions int8 not null,
  gas_used     numeric not null,
  primary key (granularity, slot, address)
);

-- An index written before this migration: the slots the scales read (the last 31 days, the last 4 hours of
-- minutes), once; older days are never read.
insert into hot_contracts (granularity, slot, address, transactions, gas_used)
select g.granularity, floor(extract(epoch from b.timestamp) / g.granularity)::int8, t.to_address, count(*),
  sum(t.gas_used)
from blocks b
join transactions t on t.block_number = b.number
cross join (values (60), (86400)) as g (granularity)
where b.timestamp >= now() - interval '31 days' and t.to_address is not null
  and (g.granularity = 86400 or b.timestamp >= now() - interval '4 hours')
group by 1, 2, 3;
