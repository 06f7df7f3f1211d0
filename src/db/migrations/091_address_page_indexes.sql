-- /addresses/{h}/blocks-validated walks an address's blocks newest first: (miner, number desc) serves the page as
-- one range scan; it also serves has_validated_blocks (exists by miner), so the miner-only index goes.
create index blocks_miner_number_idx on blocks (miner, number desc);
drop index blocks_miner_idx;

-- /addresses/{h}/token-transfers pages by (block_number, log_index, batch_index) on each side: with the whole key
-- in the index, the cursor is an index condition and the page is read in order (no sort of the address's
-- transfers in the cursor's block range), so a deep page costs what the first does. They replace the
-- (address, block_number desc) indexes, whose every use they serve.
create index token_transfers_from_page_idx
  on token_transfers (from_address, block_number desc, log_index desc, batch_index desc);
create index token_transfers_to_page_idx
  on token_transfers (to_address, block_number desc, log_index desc, batch_index desc);
drop index token_transfers_from_idx;
drop index token_transfers_to_idx;

-- /api/v2/search matches token names and symbols and verified contract names by case-insensitive prefix
-- (lower(x) like 'text%'): pattern-ops indexes on the lower-cased text serve it as range scans instead of a scan
-- of the whole table.
create index tokens_name_prefix_idx on tokens (lower(name) text_pattern_ops) where name is not null;
create index tokens_symbol_prefix_idx on tokens (lower(symbol) text_pattern_ops) where symbol is not null;
-- scope: shared
create index verified_compilations_name_prefix_idx on verified_compilations (lower(contract_name) text_pattern_ops);
