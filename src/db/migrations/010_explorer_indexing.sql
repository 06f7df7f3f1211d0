-- What the explorer pages need beyond the core tables: internal transactions, counters kept incrementally
-- (no count(*) per request), addresses first seen, withdrawals, block rewards, and more block/transaction fields.
-- Every row derived from a block carries block_number (or first_block), so a reorganisation can undo it.

-- Every call frame of every transaction (callTracer / trace_block), top-level frame included (index 0).
create table internal_transactions (
  block_number        int8 not null,
  transaction_index   int4 not null,
  -- Depth-first order within the transaction; 0 = the top-level frame.
  index               int4 not null,
  transaction_hash    bytea not null,
  type                text not null check (type in ('call', 'create', 'create2', 'selfdestruct')),
  -- 'call' | 'delegatecall' | 'staticcall' | 'callcode' when type = 'call'
  call_type           text,
  from_address        bytea not null,
  to_address          bytea,
  created_contract_address bytea,
  value               numeric not null,
  gas                 numeric,
  gas_used            numeric,
  input               bytea,
  output              bytea,
  error               text,
  trace_address       int4[] not null,
  block_hash          bytea not null,
  primary key (block_number, transaction_index, index)
);
create index internal_transactions_transaction_idx on internal_transactions (transaction_hash, index);
create index internal_transactions_from_idx
  on internal_transactions (from_address, block_number desc, transaction_index desc, index desc);
create index internal_transactions_to_idx
  on internal_transactions (to_address, block_number desc, transaction_index desc, index desc);
create index internal_transactions_created_idx
  on internal_transactions (created_contract_address, block_number desc, transaction_index desc, index desc)
  where created_contract_address is not null;

-- Per-address counters, kept incrementally in the batch transaction and undone on reorg.
create table address_counters (
  address                bytea primary key,
  -- transactions where the address is the sender, the recipient or the created contract (each counted once)
  transactions_count     int8 not null default 0,
  -- token transfer rows where the address is the sender or the recipient (each counted once)
  token_transfers_count  int8 not null default 0,
  -- gas used by the transactions the address sent
  gas_used               numeric not null default 0,
  -- blocks whose miner (fee recipient) is the address
  validations_count      int8 not null default 0,
  -- internal transactions (call frames other than a transaction's top-level call) from, to or creating the address
  internal_transactions_count int8 not null default 0,
  -- logs the address emitted
  logs_count             int8 not null default 0,
  -- withdrawals paid to the address
  withdrawals_count      int8 not null default 0
);

-- Chain-wide counters for /api/v2/stats (no count(*) per request): 'blocks', 'transactions', 'addresses',
-- 'gas_used', 'internal_transactions', 'token_transfers', 'logs', 'withdrawals'.
create table chain_counters (
  name  text primary key,
  value numeric not null
);

-- Every address seen (sender, recipient, miner, created contract, log emitter, token sender/recipient, internal
-- call party, withdrawal recipient), with the first block it was seen in; feeds total_addresses.
create table addresses (
  address     bytea primary key,
  first_block int8 not null
);
-- The reorg delete (first_block > ancestor).
create index addresses_first_block_idx on addresses (first_block);

-- Beacon-chain withdrawals (EIP-4895) of each block.
create table withdrawals (
  block_number    int8 not null,
  -- the withdrawal's global index
  index           int8 not null,
  validator_index int8 not null,
  address         bytea not null,
  -- wei (the node gives gwei)
  amount          numeric not null,
  primary key (block_number, index)
);
create index withdrawals_address_idx on withdrawals (address, block_number desc, index desc);
create index withdrawals_index_idx on withdrawals (index);

-- Block and uncle rewards where the node reports them (parity-style trace_block 'reward' traces).
-- type: 'block' | 'uncle' | 'emission' as the node names it.
create table block_rewards (
  block_number int8 not null,
  address      bytea not null,
  type         text not null,
  reward       numeric not null,
  primary key (block_number, address, type)
);

-- New columns (null where the node does not give them).
alter table blocks
  add column nonce bytea,
  add column difficulty numeric,
  add column total_difficulty numeric,
  add column extra_data bytea,
  add column state_root bytea,
  add column blob_gas_used numeric,
  add column excess_blob_gas numeric,
  add column uncles bytea[],
  add column withdrawals_count int4,
  -- sum over the block's transactions of gas_used * effective_gas_price
  add column transaction_fees numeric,
  -- gas_used * base_fee_per_gas (null before EIP-1559)
  add column burnt_fees numeric,
  -- sum over the block's transactions of gas_used * (effective_gas_price - base_fee_per_gas)
  add column priority_fees numeric,
  -- whether this block's call frames were stored in internal_transactions (false: the node gave no traces, or
  -- TRACES=off), so the explorer can say "not indexed" rather than "none"
  add column internal_transactions_indexed boolean not null default false;

alter table transactions
  add column max_fee_per_blob_gas numeric,
  add column blob_gas_used numeric,
  add column blob_gas_price numeric,
  add column blob_versioned_hashes bytea[],
  add column block_hash bytea,
  add column revert_reason text;
