-- The stats service's native coin charts and verified contracts per day, kept where their rows are written:
--   daily_stats.supply_change   per day, the change of the sum of every address's coin balance but the zero
--                               address's (burnt coins are not circulating): a change row adds its balance less the
--                               address's previous row's (0 before its first), so a day's running total is the sum of
--                               the balances at its end, as address_coin_balances holds them now;
--   daily_stats.holders_change  per day, the change of the number of addresses holding at least 0.001 of the coin
--                               (the service's holder threshold, 10^15 wei), counted the same way;
--   verified_contracts_daily    verified contracts per (chain, UTC day of verified_at), kept by the trigger that
--                               keeps the verified total, in the transaction that writes, re-verifies or deletes the
--                               row (verification writes come from the verifier's requests, not only the indexer).
-- scope: chain
alter table daily_stats add column supply_change numeric not null default 0;
alter table daily_stats add column holders_change int8 not null default 0;

-- An index whose stats stage already kept its days: their coin balance changes once (a day without a row gets its
-- change with the stage's own backfill).
with steps as (
  select (block_timestamp at time zone 'UTC')::date as day, address, value,
    lag(value, 1, 0) over (partition by address order by block_number) as previous
  from coin_balance_changes),
per_day as (
  select day,
    sum(case when address = '\x0000000000000000000000000000000000000000'::bytea then 0 else value - previous end)
      as supply,
    sum((value >= 1000000000000000)::int - (previous >= 1000000000000000)::int) as holders
  from steps group by day)
update daily_stats s set supply_change = p.supply, holders_change = p.holders
from per_day p where p.day = s.day;

-- scope: shared
create table verified_contracts_daily (
  chain_id  int8 not null,
  day       date not null,
  contracts int8 not null,
  primary key (chain_id, day)
);
insert into verified_contracts_daily (chain_id, day, contracts)
select chain_id, (verified_at at time zone 'UTC')::date, count(*) from verified_contracts group by 1, 2;

-- Adds `delta` to a chain's day; a day left with none goes, as a recount would not have it.
create function verified_contracts_daily_bump(chain int8, at timestamptz, delta int8) returns void
language plpgsql as $$
begin
  insert into verified_contracts_daily (chain_id, day, contracts) values (chain, (at at time zone 'UTC')::date, delta)
  on conflict (chain_id, day) do update set contracts = verified_contracts_daily.contracts + excluded.contracts;
  if delta < 0 then
    delete from verified_contracts_daily
    where chain_id = chain and day = (at at time zone 'UTC')::date and contracts = 0;
  end if;
end $$;

-- The verified total (migration 060) and the day of each row; a re-verification moves the row to its new day.
create or replace function verified_contracts_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    if (old.verified_at at time zone 'UTC')::date is distinct from (new.verified_at at time zone 'UTC')::date
       or old.chain_id <> new.chain_id then
      perform verified_contracts_daily_bump(old.chain_id, old.verified_at, -1);
      perform verified_contracts_daily_bump(new.chain_id, new.verified_at, 1);
    end if;
    if old.chain_id <> new.chain_id then
      perform smart_contract_counters_bump('verified:' || old.chain_id, -1);
      perform smart_contract_counters_bump('verified:' || new.chain_id, 1);
    end if;
    return new;
  end if;
  if tg_op = 'INSERT' then
    perform smart_contract_counters_bump('verified:' || new.chain_id, 1);
    perform verified_contracts_daily_bump(new.chain_id, new.verified_at, 1);
    return new;
  end if;
  perform smart_contract_counters_bump('verified:' || old.chain_id, -1);
  perform verified_contracts_daily_bump(old.chain_id, old.verified_at, -1);
  return old;
end $$;
drop trigger verified_contracts_count on verified_contracts;
create trigger verified_contracts_count after insert or delete or update of verified_at, chain_id
  on verified_contracts for each row execute function verified_contracts_count();
