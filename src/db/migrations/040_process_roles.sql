-- scope: shared
-- Several processes on one database (issue 17): verification jobs get an owner and a lease, so a job whose
-- process died is taken over when the lease expires (not only at a restart), and only the current holder
-- (matching lease_token) can record the outcome.
alter table verification_jobs
  add column owner            text,
  add column lease_token      text,
  add column lease_expires_at timestamptz;
-- The reclaim scan: running jobs by lease expiry (a small set: only jobs in flight).
create index verification_jobs_lease_idx on verification_jobs (lease_expires_at) where state = 'running';

-- scope: chain
-- Token property fetches are claimed for a while, so two workers do not fetch the same token at once.
alter table tokens add column properties_claimed_until timestamptz;

-- The index was made by `lookout start` from the local anvil it launched (a new chain on every start, so it may
-- be replaced without asking); any other chain's index is never wiped without --reset. Existing indexes of the
-- anvil chain id are taken as local.
alter table indexer_state add column local_chain boolean not null default false;
update indexer_state set local_chain = (chain_id = 31337);

-- Reorg deletes (`first_block > ancestor`) on these tables scanned them whole; rows arrive in block order, so a BRIN
-- index (a few pages) turns the delete into a read of the last ranges only.
create index tokens_first_block_idx on tokens using brin (first_block);
create index token_instances_first_block_idx on token_instances using brin (first_block);
create index address_proxies_block_idx on address_proxies using brin (block_number);
