-- The address page's has_validated_blocks: did this address produce (mine, propose) any indexed block?
create index blocks_miner_idx on blocks (miner);
