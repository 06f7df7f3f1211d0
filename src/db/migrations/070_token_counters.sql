-- Token counters kept incrementally by the indexer (src/indexer/tokens/counters.ts) instead of counted per batch.
-- fungible_holders_count: holders with a positive fungible balance (ERC-20, the ERC20Transfer side of ERC-404);
-- nft_holders_count: holders of at least one id (any NFT kind). holders_count is the one the token's type shows.
-- transfers_count: transfer events (a TransferBatch is one, as upstream stores it as one row).
alter table tokens add column fungible_holders_count int8 not null default 0;
alter table tokens add column nft_holders_count int8 not null default 0;
alter table tokens add column transfers_count int8 not null default 0;

-- One-time backfill of an index written before this migration.
update tokens t set
  fungible_holders_count = (select count(*) from token_fungible_balances f where f.token_address = t.address and f.value > 0),
  nft_holders_count = (select count(distinct holder) from token_holdings h where h.token_address = t.address and h.value > 0),
  transfers_count = (select count(*) from token_transfers x where x.token_address = t.address and x.batch_index = 0);
