-- Contracts list and counters (/api/v2/smart-contracts, /smart-contracts/counters).

-- scope: shared
-- Keyset of the verified-contracts list: newest verification first, as Blockscout's `smart_contract_id`.
alter table verified_contracts add column id bigserial;
create unique index verified_contracts_id_idx on verified_contracts (chain_id, id);
create index verified_contracts_verified_at_idx on verified_contracts (verified_at);

-- The license the verify form was sent with (Blockscout's `license_type`), per contract; kept apart from the store's
-- rows so a re-verification keeps it.
create table contract_licenses (
  chain_id      int8 not null,
  address       bytea not null,
  license_type  text not null,
  primary key (chain_id, address)
);

-- scope: chain
-- Totals kept by triggers as rows come and go (including reorg deletes), so the counters endpoint never counts a
-- growing table: 'contracts' (contract_creations rows), 'verified:<chain id>' (verified_contracts rows).
create table smart_contract_counters (
  name   text primary key,
  value  int8 not null
);
insert into smart_contract_counters (name, value) select 'contracts', count(*) from contract_creations;
insert into smart_contract_counters (name, value)
  select 'verified:' || chain_id, count(*) from verified_contracts group by chain_id;

create function smart_contract_counters_bump(counter text, delta int8) returns void language sql as $$
  insert into smart_contract_counters (name, value) values (counter, delta)
  on conflict (name) do update set value = smart_contract_counters.value + excluded.value
$$;

create function contract_creations_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform smart_contract_counters_bump('contracts', (select count(*) from new_rows));
  else
    perform smart_contract_counters_bump('contracts', -(select count(*) from old_rows));
  end if;
  return null;
end $$;
create trigger contract_creations_count_ins after insert on contract_creations
  referencing new table as new_rows for each statement execute function contract_creations_count();
create trigger contract_creations_count_del after delete on contract_creations
  referencing old table as old_rows for each statement execute function contract_creations_count();

-- scope: shared
create function verified_contracts_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform smart_contract_counters_bump('verified:' || new.chain_id, 1);
    return new;
  end if;
  perform smart_contract_counters_bump('verified:' || old.chain_id, -1);
  return old;
end $$;
create trigger verified_contracts_count after insert or delete on verified_contracts
  for each row execute function verified_contracts_count();

-- scope: chain
-- The "new in 24 h" counters find the first block of the window by time.
create index blocks_timestamp_idx on blocks (timestamp);
