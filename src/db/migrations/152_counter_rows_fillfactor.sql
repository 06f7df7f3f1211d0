-- Issue 35: every batch adds to the counters of each address it touched, a new version of each of those rows.
-- No index covers the counter columns, so with free room on the page PostgreSQL writes the new version beside the
-- old one (a HOT update) and leaves the primary key alone; full pages (fillfactor 100) forced an index entry per
-- address and batch. Applies to pages written from now on.
alter table address_counters set (fillfactor = 70);
