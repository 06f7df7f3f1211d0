-- A token's transfers newest first (/tokens/{h}/transfers): one backward range scan per page. The chain-wide list
-- walks the primary key; an instance's transfers use token_transfers_token_id_idx.
create index token_transfers_token_idx
  on token_transfers (token_address, block_number desc, log_index desc, batch_index desc);
