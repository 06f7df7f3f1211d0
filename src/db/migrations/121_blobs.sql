-- EIP-4844 blob transactions (type 3).

-- Per block: how many blob transactions it holds and the blob gas price its blob transactions paid (the first
-- one's receipt, as Blockscout takes it); both null before the indexer knew them.
alter table blocks
  add column blob_transaction_count int4,
  add column blob_gas_price numeric;

-- Blob transactions newest first (the `type=blob_transaction` filter): the partial index transactions_blob_idx
-- of migration 100.

-- Every versioned hash of every blob transaction, in order (written by the `blobs` stage; reorg: block_number >
-- ancestor). `/blobs/{hash}` finds a blob's transactions by the hash.
create table transaction_blobs (
  block_number      int8 not null,
  transaction_index int4 not null,
  index             int4 not null,
  transaction_hash  bytea not null,
  versioned_hash    bytea not null,
  primary key (block_number, transaction_index, index)
);
create index transaction_blobs_hash_idx on transaction_blobs (versioned_hash, block_number desc);

-- Blob contents fetched from the configured beacon node (BEACON_NODE_URL), by versioned hash. Content-addressed:
-- a blob is the same whatever block carries it, so a reorganisation keeps it (as Blockscout's beacon_blobs).
create table blobs (
  hash            bytea primary key,
  blob_data       bytea not null,
  kzg_commitment  bytea not null,
  kzg_proof       bytea not null,
  fetched_at      timestamptz not null default now()
);

-- The blob fetcher's place: the first block whose blobs it has not yet asked the beacon node for. A reorganisation
-- moves it back to the ancestor + 1 (the `blobs` stage's revert), so new blocks at old heights are fetched too.
create table blob_fetch_state (
  id         smallint primary key default 1 check (id = 1),
  next_block int8 not null
);
