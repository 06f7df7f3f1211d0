-- What the node sent that Lookout does not read: the members of a transaction and of its receipt outside the
-- known set (an unknown transaction type's own fields, a newer node's additions), kept as they came:
-- {"transaction": {...}, "receipt": {...}}; null when there were none.
alter table transactions add column unknown_members jsonb;
