-- Tokens, token transfers, current holdings, token instances (NFT metadata) and proxy implementations.
-- Holdings are derived state: token_transfers (keyed by block) is the log they are rebuilt from on a reorganisation.

-- One row per token contract seen emitting a token event. `type` only moves up ERC-20 < ERC-721 < ERC-1155 < ERC-404
-- (as upstream's sanitize_token_types); on a reorg it is recomputed from the remaining transfers.
create table tokens (
  address              bytea primary key,
  type                 text not null check (type in ('ERC-20', 'ERC-721', 'ERC-1155', 'ERC-404')),
  name                 text,
  symbol               text,
  decimals             numeric,
  total_supply         numeric,
  holders_count        int8 not null default 0,
  -- ERC-165 answer for the type's interface id: true/false when the contract answered, null when it did not.
  erc165_confirmed     boolean,
  first_block          int8 not null,
  -- Property fetch by eth_call: null = due; total supply goes stale with every mint or burn.
  properties_fetched_at timestamptz,
  supply_stale         boolean not null default true
);
create index tokens_properties_due_idx on tokens (address) where properties_fetched_at is null or supply_stale;

-- Every decoded transfer. ERC-1155 TransferBatch gives one row per (id, value) pair, `batch_index` apart.
-- `kind` is the standard of the event (not of the token): ERC-404 rows come from ERC20Transfer/ERC721Transfer.
create table token_transfers (
  block_number      int8 not null,
  log_index         int4 not null,
  batch_index       int4 not null,
  transaction_hash  bytea not null,
  token_address     bytea not null,
  kind              text not null,
  from_address      bytea not null,
  to_address        bytea not null,
  -- null for fungible transfers (ERC-20, ERC-404 ERC20Transfer)
  token_id          numeric,
  amount            numeric not null,
  primary key (block_number, log_index, batch_index)
);
create index token_transfers_token_id_idx on token_transfers (token_address, token_id, block_number desc, log_index desc);
-- has_token_transfers of the address page (and a future /token-transfers list).
create index token_transfers_from_idx on token_transfers (from_address, block_number desc);
create index token_transfers_to_idx on token_transfers (to_address, block_number desc);

-- Current per-id NFT holdings: ERC-721 owner (value 1, one holder per id), ERC-1155 and ERC-404 balances.
-- Rows whose value reaches 0 are deleted. The unique index is in the list's order (contract ascending, id
-- descending), so every segment of an /addresses/{h}/nft page is one forward range scan with no sort.
create table token_holdings (
  holder         bytea not null,
  token_type     text not null,
  token_address  bytea not null,
  token_id       numeric not null,
  value          numeric not null
);
create unique index token_holdings_page_idx on token_holdings (holder, token_type, token_address, token_id desc);
create index token_holdings_token_idx on token_holdings (token_address, token_id);

-- Current fungible balances (ERC-20, and the ERC20Transfer side of ERC-404), for holders_count and has_tokens.
create table token_fungible_balances (
  holder         bytea not null,
  token_address  bytea not null,
  value          numeric not null,
  primary key (holder, token_address)
);
create index token_fungible_balances_token_idx on token_fungible_balances (token_address) where value > 0;

-- One row per NFT (token, id) ever transferred, with its fetched metadata and the fetcher's retry bookkeeping.
create table token_instances (
  token_address   bytea not null,
  token_id        numeric not null,
  token_type      text not null,
  first_block     int8 not null,
  metadata        jsonb,
  token_uri       text,
  fetched_at      timestamptz,
  fetch_attempts  int4 not null default 0,
  retry_at        timestamptz default now(),
  gave_up         boolean not null default false,
  error_reason    text,
  error_message   text,
  primary key (token_address, token_id)
);
create index token_instances_due_idx on token_instances (retry_at) where retry_at is not null and not gave_up;

-- Proxy implementations (EIP-1967, EIP-1822, EIP-897) as read at a block; the newest row per address wins.
create table address_proxies (
  address         bytea not null,
  block_number    int8 not null,
  proxy_type      text,
  implementation  bytea,
  primary key (address, block_number)
);
