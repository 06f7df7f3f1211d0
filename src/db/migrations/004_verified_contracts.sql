-- scope: shared
-- The verified-contract store ("bytecode database"): one row per verified (chain, address).
-- Rows verified by a user are never overwritten by automatic ones, and a full match is never downgraded.
create table verified_contracts (
  chain_id                 int8 not null,
  address                  bytea not null,
  match_type               text not null check (match_type in ('full', 'partial')),
  creation_match           text check (creation_match in ('full', 'partial')),
  runtime_match            text check (runtime_match in ('full', 'partial')),
  -- Verified by the indexer because the code equals another verified contract's (see verified_from_*).
  automatic                boolean not null default false,
  -- For automatic rows on the indexed chain: the block of the creation, so a reorganisation removes the row.
  block_number             int8,
  verified_from_chain_id   int8,
  verified_from_address    bytea,
  language                 text not null,
  compiler                 text not null,
  compiler_version         text not null,
  compiler_settings        jsonb not null,
  sources                  jsonb not null,
  file_name                text not null,
  contract_name            text not null,
  abi                      jsonb,
  constructor_arguments    bytea,
  libraries                jsonb not null default '{}',
  creation_transformations jsonb,
  creation_values          jsonb,
  runtime_transformations  jsonb,
  runtime_values           jsonb,
  -- What the compiler produced (placeholders zeroed) with the artifacts the matching engine needs, so the
  -- same engine can match other deployments of this code (search, automatic verification).
  compiled_creation_code   bytea not null,
  compiled_runtime_code    bytea not null,
  compiled_artifacts       jsonb not null,
  is_blueprint             boolean not null default false,
  onchain_creation_code    bytea,
  onchain_runtime_code     bytea not null,
  -- Candidate lookups: runtime length (Solidity runtime code is as long as compiled) and the creation prefix.
  runtime_code_length      int4 not null,
  creation_code_prefix     bytea not null,
  creation_transaction_hash bytea,
  verified_at              timestamptz not null default now(),
  primary key (chain_id, address)
);
create index verified_contracts_runtime_len_idx on verified_contracts (runtime_code_length);
create index verified_contracts_creation_prefix_idx on verified_contracts (creation_code_prefix);
create index verified_contracts_auto_block_idx on verified_contracts (block_number) where automatic;
