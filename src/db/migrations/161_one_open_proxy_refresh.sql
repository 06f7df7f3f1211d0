-- One open verifyproxycontract request per address: a repeat while one is open gets the open one's GUID (a client
-- cannot queue thousands of requests for one proxy ahead of everyone else's). Duplicates open before this
-- migration are answered as their oldest sibling will be: the newer ones are dropped.
delete from proxy_refresh_requests r
where r.answered_block is null
  and exists (select 1 from proxy_refresh_requests o
              where o.address = r.address and o.answered_block is null
                and (o.requested_at, o.guid) < (r.requested_at, r.guid));
create unique index proxy_refresh_requests_one_open_idx on proxy_refresh_requests (address)
  where answered_block is null;
