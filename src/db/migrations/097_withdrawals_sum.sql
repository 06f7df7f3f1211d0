-- The sum of all withdrawals (wei) joins the chain-wide counters, kept by the counters stage from here on.
-- A database whose counters exist gets today's sum once; one without counters gets it with the counters' own
-- backfill (which needs chain_counters empty, so nothing is written then).
insert into chain_counters (name, value)
select 'withdrawals_sum', (select coalesce(sum(amount), 0) from withdrawals)
where exists (select 1 from chain_counters)
on conflict (name) do nothing;
