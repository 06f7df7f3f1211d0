-- scope: shared
-- The HTTP API's rate-limit counters (@fastify/rate-limit's store on PostgreSQL), shared by every `serve` process
-- of one database: one row per limited key (a client address or API key, and the route group), counting the
-- requests of its current window. Unlogged: a counter lost in a crash costs a client one fresh window, and no
-- WAL is written per request. Rows whose window ended long ago are deleted now and then by the store.
create unlogged table api_rate_limits (
  key       text primary key,
  hits      int4 not null,
  reset_at  timestamptz not null
);
