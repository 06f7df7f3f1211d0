-- Issue 35: while the indexer catches up, the trailing stages (counters, stats, hot contracts: sums read back from
-- a batch's committed rows) write each batch in a transaction of their own on a second connection, beside the next
-- batch's transaction. While the row exists, it says up to which block they have written; a restart writes the
-- rest from the stored rows before anything else (src/indexer/pipeline/trail.ts).
create table indexer_trail (
  id    int4 primary key default 1 check (id = 1),
  block int8 not null
);
