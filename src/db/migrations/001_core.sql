-- Core chain data. Hashes and addresses are bytea (20 or 32 bytes); amounts are numeric; heights int8.
-- Every table derived from a block carries block_number, so a reorganisation deletes "where block_number > ancestor".

create table indexer_state (
  id            smallint primary key default 1 check (id = 1),
  chain_id      int8 not null,
  -- Identity of the indexed chain: the hash of the first indexed block. A different chain behind the same
  -- RPC URL is detected instead of being silently mixed with the stored one.
  start_block   int8 not null,
  start_hash    bytea not null,
  -- Checkpoint: the last block whose rows are all written (moved in the transaction that writes them).
  last_block    int8,
  last_hash     bytea,
  updated_at    timestamptz not null default now()
);

create table blocks (
  number            int8 primary key,
  hash              bytea not null unique,
  parent_hash       bytea not null,
  timestamp         timestamptz not null,
  miner             bytea not null,
  gas_used          numeric not null,
  gas_limit         numeric not null,
  base_fee_per_gas  numeric,
  size              int8,
  transaction_count int4 not null
);

create table transactions (
  hash                  bytea primary key,
  block_number          int8 not null,
  index                 int4 not null,
  from_address          bytea not null,
  to_address            bytea,
  value                 numeric not null,
  nonce                 int8 not null,
  gas                   numeric not null,
  gas_price             numeric,
  max_fee_per_gas       numeric,
  max_priority_fee_per_gas numeric,
  type                  int4 not null,
  input                 bytea not null,
  status                smallint,
  gas_used              numeric not null,
  cumulative_gas_used   numeric not null,
  effective_gas_price   numeric,
  contract_address      bytea,
  unique (block_number, index)
);
create index transactions_from_idx on transactions (from_address, block_number desc, index desc);
create index transactions_to_idx on transactions (to_address, block_number desc, index desc);

create table logs (
  block_number      int8 not null,
  log_index         int4 not null,
  transaction_hash  bytea not null,
  transaction_index int4 not null,
  address           bytea not null,
  topic0            bytea,
  topic1            bytea,
  topic2            bytea,
  topic3            bytea,
  data              bytea not null,
  primary key (block_number, log_index)
);
create index logs_address_idx on logs (address, block_number desc, log_index desc);
create index logs_transaction_idx on logs (transaction_hash);

-- Every successful contract creation: by a transaction (to = null) or inside one (CREATE/CREATE2 from traces).
create table contract_creations (
  block_number      int8 not null,
  transaction_index int4 not null,
  -- Order of the creation within its transaction (0 for the transaction's own creation).
  creation_index    int4 not null,
  address           bytea not null,
  creator           bytea not null,
  transaction_hash  bytea not null,
  kind              text not null check (kind in ('transaction', 'create', 'create2')),
  init_code         bytea not null,
  runtime_code      bytea,
  primary key (block_number, transaction_index, creation_index)
);
create index contract_creations_address_idx on contract_creations (address, block_number desc);
