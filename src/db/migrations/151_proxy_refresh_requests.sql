-- The Etherscan module's verifyproxycontract (hardhat-upgrades links a proxy to its implementation with it): a
-- request to read a proxy's implementation again, answered by the indexer's proxies stage in its next batch (at
-- that batch's block, in its transaction, so the address_proxies row it may write is cut back by a reorg like any
-- other), and read back by checkproxyverification. `guid` is what the client polls with.
create table proxy_refresh_requests (
  guid            text primary key,
  address         bytea not null,
  requested_at    timestamptz not null default now(),
  -- Set when the indexer has looked: the block it read, and what it found (null: no implementation).
  answered_block  int8,
  implementation  bytea
);
-- The stage reads the open requests every batch: an index holding only those (usually none).
create index proxy_refresh_requests_open_idx on proxy_refresh_requests (requested_at) where answered_block is null;
-- Older requests of the same address are dropped with each new one (the table holds one per address at most,
-- plus those a client may still be polling).
create index proxy_refresh_requests_address_idx on proxy_refresh_requests (address, requested_at);
