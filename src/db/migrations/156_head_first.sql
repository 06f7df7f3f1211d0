-- Head first (issue 35 part 4): the index may be two segments while history catches up beside the head.
--   [start_block .. history_block]  history, written in order from the start (the history cursor);
--   [head_start  .. last_block]     the head segment, written in order from head_start (the head cursor).
-- head_start is null when the index is one contiguous range [start_block .. last_block] (history_block is then
-- null too). Both cursors move in the transactions that write their rows; when history reaches head_start - 1
-- the join rewrites the head segment in order in one transaction and clears both columns.
alter table indexer_state add column head_start int8;
alter table indexer_state add column history_block int8;
alter table indexer_state add column history_hash bytea;
