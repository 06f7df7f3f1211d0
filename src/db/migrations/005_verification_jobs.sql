-- scope: shared
-- Asynchronous verification jobs of the Etherscan-compatible (/api) and Sourcify-compatible (/sourcify) APIs.
-- A client gets the job id at once and polls; the job runner claims pending jobs, and at start-up puts back
-- jobs a stopped process left running, so a restart loses nothing.
create table verification_jobs (
  id            text primary key,
  chain_id      int8 not null,
  address       bytea not null,
  state         text not null check (state in ('pending', 'running', 'done')),
  -- The verify service request (language, compiler, contracts, input) as submitted.
  request       jsonb not null,
  -- sha256 of the request, so an identical resubmission while the job runs gets the same id back.
  request_hash  text not null,
  -- What the job ended with (see src/verifier/jobs/types.ts); null until done.
  outcome       jsonb,
  attempts      int4 not null default 0,
  created_at    timestamptz not null default now(),
  started_at    timestamptz,
  finished_at   timestamptz,
  duration_ms   int4
);
-- At most one active job per contract: the dedup of both APIs rests on this index.
create unique index verification_jobs_active_idx on verification_jobs (chain_id, address)
  where state in ('pending', 'running');
create index verification_jobs_pending_idx on verification_jobs (created_at) where state = 'pending';
