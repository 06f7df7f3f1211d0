-- scope: shared
-- The verified-contract store's large values (sources, compiled code and artifacts, on-chain code) compress with
-- lz4 where the server has it: a compilation with 150 KB of OpenZeppelin sources was written in 5.6 ms instead of
-- 8.5 with pglz, on the request's path before the answer. Only values written from now on; PGlite and servers built
-- without lz4 keep pglz.
do $$
begin
  if exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
    alter table verified_compilations
      alter column sources set compression lz4,
      alter column compiler_settings set compression lz4,
      alter column abi set compression lz4,
      alter column compiled_artifacts set compression lz4,
      alter column compiled_creation_code set compression lz4,
      alter column compiled_runtime_code set compression lz4;
    alter table verified_contracts
      alter column onchain_creation_code set compression lz4,
      alter column onchain_runtime_code set compression lz4;
  end if;
end $$;
