/**
 * The hot-contracts stage's statements over a block range ($1 < block <= $2): per recipient, per minute and per
 * UTC day of the block time, its transactions and their gas used.
 */
const SLOTS = `s as (
    select g.granularity, floor(extract(epoch from b.timestamp) / g.granularity)::int8 as slot,
      t.to_address as address, count(*) as n, sum(t.gas_used) as gas
    from transactions t
    join blocks b on b.number = t.block_number
    cross join (values (60), (86400)) as g (granularity)
    where t.block_number > $1 and t.block_number <= $2 and t.to_address is not null
    group by 1, 2, 3)`;

/** Writing a batch: the range's slots added. */
export const ADD_HOT_CONTRACTS = `
  with ${SLOTS}
  insert into hot_contracts (granularity, slot, address, transactions, gas_used)
  select granularity, slot, address, n, gas from s
  on conflict (granularity, slot, address) do update set
    transactions = hot_contracts.transactions + excluded.transactions,
    gas_used = hot_contracts.gas_used + excluded.gas_used`;

/**
 * Writing committed blocks whose slots were summed in memory from the batches themselves (extension.ts): the same
 * upsert, the slots given as arrays ($1 granularities, $2 slots, $3 addresses, $4 transactions, $5 gas used).
 */
export const ADD_HOT_SLOTS = `
  insert into hot_contracts (granularity, slot, address, transactions, gas_used)
  select * from unnest($1::int4[], $2::int8[], $3::bytea[], $4::int8[], $5::numeric[])
  on conflict (granularity, slot, address) do update set
    transactions = hot_contracts.transactions + excluded.transactions,
    gas_used = hot_contracts.gas_used + excluded.gas_used`;

/**
 * Reverting ($2 open-ended, before the transactions are deleted): a slot row goes when all its transactions are
 * reverted, is reduced otherwise. A minute slot already dropped stays dropped.
 */
export const SUBTRACT_HOT_CONTRACTS = `
  with ${SLOTS},
  gone as (
    delete from hot_contracts h using s
    where h.granularity = s.granularity and h.slot = s.slot and h.address = s.address and h.transactions <= s.n
    returning 1)
  update hot_contracts h set transactions = h.transactions - s.n, gas_used = h.gas_used - s.gas
  from s
  where h.granularity = s.granularity and h.slot = s.slot and h.address = s.address and h.transactions > s.n`;

/**
 * Minute slots from $2 up to $1 (the stage keeps the widest minute scale, 3 h, and a margin). $2 is where the last
 * drop ended, when known: without it the index scan starts at the first minute slot ever written and walks every
 * entry the earlier drops left dead until VACUUM removes them, a read that grows with the table between vacuums.
 */
export const DROP_OLD_MINUTES =
  "delete from hot_contracts where granularity = 60 and slot >= $2::int8 and slot < $1::int8";
