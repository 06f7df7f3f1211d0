-- scope: shared
-- Several chains in one database (issue 40): a chain's 'verified:<chain id>' counter lives in its own schema's
-- smart_contract_counters (chain_<id>), whichever process inserts the row and whatever search path it has (the
-- verifier writes through the first chain's); the first chain's counter stays where the search path finds it.
-- Adds `delta` to the 'verified:<chain>' counter where that chain's other counters are.
create function verified_contracts_counter_bump(c int8, delta int8) returns void language plpgsql as $$
begin
  if to_regnamespace('chain_' || c) is null then
    perform smart_contract_counters_bump('verified:' || c, delta);
  else
    execute format('insert into %I.smart_contract_counters as s (name, value) values ($1, $2)
                    on conflict (name) do update set value = s.value + excluded.value', 'chain_' || c)
      using 'verified:' || c, delta;
  end if;
end $$;

-- Migration 171's trigger (the verified total and the day of each row, a re-verification moving the row to its new
-- day) with the total kept in the chain's own schema.
create or replace function verified_contracts_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    if (old.verified_at at time zone 'UTC')::date is distinct from (new.verified_at at time zone 'UTC')::date
       or old.chain_id <> new.chain_id then
      perform verified_contracts_daily_bump(old.chain_id, old.verified_at, -1);
      perform verified_contracts_daily_bump(new.chain_id, new.verified_at, 1);
    end if;
    if old.chain_id <> new.chain_id then
      perform verified_contracts_counter_bump(old.chain_id, -1);
      perform verified_contracts_counter_bump(new.chain_id, 1);
    end if;
    return new;
  end if;
  if tg_op = 'INSERT' then
    perform verified_contracts_counter_bump(new.chain_id, 1);
    perform verified_contracts_daily_bump(new.chain_id, new.verified_at, 1);
    return new;
  end if;
  perform verified_contracts_counter_bump(old.chain_id, -1);
  perform verified_contracts_daily_bump(old.chain_id, old.verified_at, -1);
  return old;
end $$;
-- The cross-chain pass reads the users' verifications in the order they were stored.
create index verified_contracts_by_user_idx on verified_contracts (id) where not automatic;
