-- scope: shared
-- A finished verification job keeps what its status answers read (state, outcome, times, the request's hash),
-- not the request it ran: the sources, settings and anything a client padded them with (up to BODY_LIMIT) are
-- needed only while the job can still run.
alter table verification_jobs alter column request drop not null;
update verification_jobs set request = null where state = 'done' and request is not null;
