-- Counters that per-request sums read before (no sum over a growing table per request):
--   daily_counters    blocks, transactions, gas used and fees per UTC day of the block timestamps, kept by the
--                     counters stage (/stats/charts/transactions, /stats' today figures, the Etherscan module's
--                     stats&action=totalfees), as Blockscout keeps daily transaction stats; a day has a row when
--                     it has a block;
--   coin_balance_sum  in chain_counters: the sum of every current coin balance, kept by the balances stage
--                     (stats&action=ethsupply and coinsupply).
create table daily_counters (
  day date primary key,
  blocks int8 not null,
  transactions int8 not null,
  gas_used numeric not null,
  fees numeric not null
);

-- An index whose counters exist gets today's figures once; one without gets them with the counters' own backfill.
insert into daily_counters (day, blocks, transactions, gas_used, fees)
select (timestamp at time zone 'UTC')::date, count(*), sum(transaction_count), sum(gas_used),
  coalesce(sum(transaction_fees), 0)
from blocks
where exists (select 1 from chain_counters where name = 'blocks')
group by 1;

insert into chain_counters (name, value)
select 'coin_balance_sum', coalesce(sum(value), 0) from address_coin_balances
on conflict (name) do nothing;
