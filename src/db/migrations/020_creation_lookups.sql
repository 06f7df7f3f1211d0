-- scope: shared
-- Creations the verifier found on a node (chains we do not index, or blocks the indexer had not reached yet), so a
-- second verification of the same address repeats no search. The block hash lets a reorg be noticed: a cached row
-- whose block is no longer on the chain is searched again.
create table creation_lookups (
  chain_id          text not null,
  address           bytea not null,
  transaction_hash  bytea not null,
  creator           bytea,
  block_number      int8 not null,
  block_hash        bytea not null,
  init_code         bytea not null,
  found_at          timestamptz not null default now(),
  primary key (chain_id, address)
);
