import { DAILY_STATS_COLUMNS } from "../../../chain-store/daily-stats.js";
import { byBlock } from "../balance-changes-by-block.js";
import { statementVariants } from "../statement-variants.js";

/**
 * The stats stage's statements: per UTC day deltas of a block range ($1 < block <= $2) times $3 (1 when a batch is
 * written, -1 when a reorganisation takes the range back, before any of its rows is deleted). One statement per
 * direction, so a batch costs one round trip; the day facts are the same text both ways.
 */
const inRange = (column: string) => `${column} > $1 and ${column} <= $2`;

/** The OP stack's L1 attributes depositor: its deposits are the protocol's, not users' ("operational" excludes them). */
export const ATTRIBUTES_DEPOSITOR = "0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001";

/** Burnt coins are not circulating: the zero address's balance is left out of the supply. */
const ZERO_ADDRESS = "\\x0000000000000000000000000000000000000000";
/**
 * The day sums a trailing write carries from the batches (carry.ts), each the sum of what the fact of the
 * transactions or the creations below gives it: their arrays follow the days' ($7) from $8 on, in this order.
 */
export const CARRIED_DAY_COLUMNS = [
  "successful_transactions",
  "operational_transactions",
  "gas_price_sum",
  "priced_transactions",
  "native_transfers",
  "contracts",
  // The balance steps but each address's first in the range (whose previous balance is the stored one below it).
  "supply_change",
  "holders_change",
] as const;

/** The parameter after the carried day columns: each address's first balance change ($n day, $n+1, $n+2 value). */
const FIRST_CHANGES = 8 + CARRIED_DAY_COLUMNS.length;

/** The stats service's holder: an address with at least 0.001 of the coin (10^15 wei). */
const HOLDER_MIN = "1000000000000000";

/**
 * The range's coin balance changes, each with the address's balance before it (its previous row's, 0 before its
 * first): a step from one to the other. The steps of the days up to D add up to the balances at the end of D, so a
 * day's supply and holders change is the sum of its steps, and a reorganisation subtracts the same steps (the rows
 * are still there: this stage is reverted before the balances stage). Within the range the previous row is the
 * window's; only an address's first change in the range probes for its row below the range (one probe per address,
 * not per change: a trailing write covers many batches, where most changes follow one of the same range). The
 * row's own delta is not used: an address allocated at genesis has no row before its first change, which is then
 * a step up from 0 here, as the sum of balances counts it. `offset 0` keeps `previous` one column, computed once.
 */
const BALANCE_STEPS = `select s.day, s.block_number, s.address, s.value,
      case when s.prior is not null then s.prior else coalesce(
        (select p.value from coin_balance_changes p
         where p.address = s.address and p.block_number <= $1
         order by p.block_number desc limit 1), 0) end as previous
    from (select (c.block_timestamp at time zone 'UTC')::date as day, c.block_number, c.address, c.value,
        lag(c.value) over (partition by c.address order by c.block_number) as prior
      from coin_balance_changes c
      where ${inRange("c.block_number")} and ${byBlock("c")}) s
    offset 0`;

/**
 * A table's rows in the range's blocks, found block by block through the index that leads with its block number: the
 * blocks (`b`) are the outer side, so they are read once, and the table is never read whole, however the planner
 * estimates the join (with a plain join it read all of `contract_creations` per batch on default settings, and with
 * the range on both sides it rescanned `b` per row). `offset 0` keeps the subquery a probe.
 */
const inBlocks = (table: string, alias: string, where = "") =>
  `b cross join lateral (select * from ${table} ${alias} where ${alias}.block_number = b.number${where} offset 0) ${alias}`;

/** daily_stats columns, each summed from the facts below. */
const COLUMNS = DAILY_STATS_COLUMNS;
type Column = (typeof COLUMNS)[number];

/** One select per source table, naming only the columns it gives (the others are 0). */
const fact = (values: Partial<Record<Column, string>>, from: string) =>
  `select day, ${COLUMNS.map((c) => `${values[c] ?? "0"}::numeric as ${c}`).join(", ")} ${from}`;

/**
 * Which of the day facts' sources can have rows in a batch (all of them when it is not known, as in a backfill or a
 * revert): a source known to be empty is left out of the statement, which then costs less to plan (most of its time
 * for a quiet chain's block) and gives the same sums.
 */
export type DaySources = {
  transactions: boolean;
  creations: boolean;
  authorizations: boolean;
  rewards: boolean;
};
const ALL_SOURCES: DaySources = { transactions: true, creations: true, authorizations: true, rewards: true };

/**
 * The range's days (`b`), and per day the blocks' facts, the transactions', the contract creations', the EIP-7702
 * authorizations', the block rewards' and the coin balance changes'. A transfer of the native coin is a transaction with a value (the service's
 * new_native_coin_transfers); the price a transaction paid is its receipt's effective gas price (its gas price
 * before London, as the service's average_gas_price takes it).
 */
const dayFacts = (from: DaySources, carried = false) => [
  fact(
    {
      blocks: "1",
      gas_limit: "gas_limit",
      block_size: "coalesce(size, 0)",
      sized_blocks: "(size is not null)::int",
    },
    "from b",
  ),
  // The transactions' and creations' facts summed per day in memory (carry.ts), or read from their rows.
  ...(carried
    ? [
        fact(
          Object.fromEntries(CARRIED_DAY_COLUMNS.map((c) => [c, `d.${c}`])),
          `from unnest($7::date[], ${CARRIED_DAY_COLUMNS.map((_, i) => `$${i + 8}::numeric[]`).join(", ")})
            as d(day, ${CARRIED_DAY_COLUMNS.join(", ")})`,
        ),
      ]
    : []),
  ...(from.transactions && !carried
    ? [
        fact(
          {
            successful_transactions: "(t.status = 1)::int",
            operational_transactions: `(not (t.type = 126 and t.from_address = '\\x${ATTRIBUTES_DEPOSITOR.slice(2)}'::bytea))::int`,
            gas_price_sum: "coalesce(t.effective_gas_price, t.gas_price, 0)",
            priced_transactions: "(coalesce(t.effective_gas_price, t.gas_price) is not null)::int",
            native_transfers: "(t.value > 0)::int",
          },
          `from ${inBlocks("transactions", "t")}`,
        ),
      ]
    : []),
  ...(from.creations && !carried
    ? [fact({ contracts: "1" }, `from ${inBlocks("contract_creations", "c")}`)]
    : []),
  ...(from.authorizations
    ? [fact({ authorizations: "1" }, `from ${inBlocks("transaction_authorizations", "a")}`)]
    : []),
  ...(from.rewards
    ? [
        fact(
          { rewards: "r.reward", rewarded_blocks: "1" },
          `from ${inBlocks("block_rewards", "r", " and r.type = 'block'")}`,
        ),
      ]
    : []),
  // The change rows carry their block's time: no join to `b`, whose rescans the planner chose per row.
  stepsFact(carried ? CARRIED_FIRST_STEPS : BALANCE_STEPS),
];

/** The supply and holders change of balance steps (`steps`: day, address, value, previous). */
const stepsFact = (steps: string) =>
  fact(
    {
      supply_change: `case when c.address = '${ZERO_ADDRESS}'::bytea then 0 else c.value - c.previous end`,
      holders_change: `(c.value >= ${HOLDER_MIN})::int - (c.previous >= ${HOLDER_MIN})::int`,
    },
    `from (${steps}) c`,
  );

/**
 * The steps of each address's first balance change in a carried range (carry.ts; its later steps are in the day
 * sums): the previous balance is its stored row's below the range, as `BALANCE_STEPS` probes it.
 */
const CARRIED_FIRST_STEPS = `select f.day, f.address, f.value, coalesce(
        (select p.value from coin_balance_changes p
         where p.address = f.address and p.block_number <= $1
         order by p.block_number desc limit 1), 0) as previous
    from unnest($${FIRST_CHANGES}::date[], $${FIRST_CHANGES + 1}::bytea[], $${FIRST_CHANGES + 2}::numeric[])
      as f(day, address, value)
    offset 0`;

const BLOCKS = `b as (select number, gas_limit, size, (timestamp at time zone 'UTC')::date as day from blocks where ${inRange("number")})`;

/** The senders of the range per day, with their first block there. */
const SENT = `sent as (
    select b.day, t.from_address as address, min(t.block_number) as first_block
    from ${inBlocks("transactions", "t")} group by b.day, t.from_address)`;

/** The upsert of the facts (`facts`: day and every column) times $3. */
const UPSERT_DAILY = `
  insert into daily_stats (day, ${COLUMNS.join(", ")})
  select day, ${COLUMNS.map((c) => `$3::int * sum(${c})`).join(", ")} from facts group by day
  on conflict (day) do update set
    ${COLUMNS.map((c) => `${c} = daily_stats.${c} + excluded.${c}`).join(",\n    ")}
  returning day::text as day, daily_stats.blocks = 0 as empty`;

/**
 * Writing a batch: a sender new to a day adds an active account to it (the pair's row is inserted; a known pair is
 * left as it is, no row version written); a sender never seen before adds a new account on the day of its first
 * block. Without transactions there are no senders. Both are sets, the same in any order of batches (head first).
 */
const ACCOUNTS_AND_FACTS = (facts: string[]) => `
  fresh as (
    insert into daily_active_accounts (day, address) select day, address from sent
    on conflict (day, address) do nothing
    returning day),
  firsts as (
    insert into stats_accounts (address, first_block)
    select address, min(first_block) from sent group by address
    on conflict (address) do nothing
    returning first_block),
  facts as (
    ${facts.join("\n    union all ")}
    union all ${fact({ active_accounts: "1" }, "from fresh")}
    union all ${fact({ new_accounts: "1" }, "from firsts f join b on b.number = f.first_block")})
  ${UPSERT_DAILY}`;

const addDailyStats = (from: DaySources) =>
  from.transactions
    ? `
  with ${BLOCKS},
  ${SENT},${ACCOUNTS_AND_FACTS(dayFacts(from))}`
    : `
  with ${BLOCKS},
  facts as (
    ${dayFacts(from).join("\n    union all ")})
  ${UPSERT_DAILY}`;

/**
 * Writing committed blocks ($1 < block <= $2, $3 = 1) whose transactions', creations' and balance steps' facts were
 * summed in memory from the batches themselves (carry.ts): the senders per day with their first block ($4 days, $5
 * addresses, $6 blocks), the day sums ($7 days, then `CARRIED_DAY_COLUMNS`) and each address's first balance change
 * in the range (`CARRIED_FIRST_STEPS`), with the blocks', authorizations' and rewards' facts read as
 * `ADD_DAILY_STATS` reads them.
 */
export const ADD_DAILY_STATS_FROM_CARRY = `
  with ${BLOCKS},
  sent as (select * from unnest($4::date[], $5::bytea[], $6::int8[]) as s(day, address, first_block)),${ACCOUNTS_AND_FACTS(
    dayFacts(ALL_SOURCES, true),
  )}`;

/** Writing a batch whose sources are all possible (a backfill). */
export const ADD_DAILY_STATS = addDailyStats(ALL_SOURCES);

/** Writing a batch with only the sources it can have. */
export const addDailyStatsOf = statementVariants(addDailyStats);

/**
 * Reverting ($2 open-ended): a sender leaves a day when every transaction it sent that day is reverted, that is when
 * its latest transaction left (at or below the ancestor, one probe of the sender index) is on an earlier day, or
 * there is none: block times never go back, so days follow block numbers. The transactions above the ancestor are
 * still there (this stage is reverted before the core rows). The senders first seen above the ancestor are
 * forgotten. Returns the days left without blocks.
 */
export const SUBTRACT_DAILY_STATS = `
  with ${BLOCKS},
  ${SENT},
  left_day as (
    delete from daily_active_accounts a using sent s
    where a.day = s.day and a.address = s.address
      and (select (k.timestamp at time zone 'UTC')::date
           from transactions t join blocks k on k.number = t.block_number
           where t.from_address = s.address and t.block_number <= $1
           order by t.block_number desc limit 1) is distinct from s.day
    returning a.day),
  forgotten as (delete from stats_accounts where first_block > $1 returning first_block),
  facts as (
    ${dayFacts(ALL_SOURCES).join("\n    union all ")}
    union all ${fact({ active_accounts: "1" }, "from left_day")}
    union all ${fact({ new_accounts: "1" }, "from forgotten f join b on b.number = f.first_block")})
  ${UPSERT_DAILY}`;
