-- scope: shared
-- Sources, settings, ABI and compiler output are stored once per compilation, not once per verified address:
-- a copy of a verified contract (a second deployment, an automatic verification) adds one small row to
-- verified_contracts that points here, instead of writing tens to hundreds of KB again.
create table verified_compilations (
  -- sha256 of compiler, version, language, settings, sources, file and contract name (src/verifier/store/keys.ts).
  id                     bytea primary key,
  -- sha256 of compiler, version, settings and sources: what a verification request can be looked up by before
  -- it knows which contract of the output matches.
  input_hash             bytea not null,
  language               text not null,
  compiler               text not null,
  compiler_version       text not null,
  compiler_settings      jsonb not null,
  sources                jsonb not null,
  file_name              text not null,
  contract_name          text not null,
  abi                    jsonb,
  -- What the compiler produced (placeholders zeroed) with the artifacts the matching engine needs (ABI apart).
  compiled_creation_code bytea not null,
  compiled_runtime_code  bytea not null,
  compiled_artifacts     jsonb not null,
  created_at             timestamptz not null default now()
);
create index verified_compilations_input_hash_idx on verified_compilations (input_hash);

-- Rows stored before this migration get keys computed here, from the jsonb text of their columns: not the keys the
-- service computes, so a later verification of the same compilation stores it once more (same content, new key),
-- and stored-copy lookups by input_hash do not find them (such requests compile, as before).
alter table verified_contracts add column compilation_id bytea;
update verified_contracts set compilation_id = sha256(convert_to(jsonb_build_array('migrated', compiler,
  compiler_version, language, compiler_settings, sources, file_name, contract_name)::text, 'UTF8'));
insert into verified_compilations (id, input_hash, language, compiler, compiler_version, compiler_settings, sources,
    file_name, contract_name, abi, compiled_creation_code, compiled_runtime_code, compiled_artifacts, created_at)
  select distinct on (compilation_id) compilation_id,
    sha256(convert_to(jsonb_build_array('migrated', compiler, compiler_version, compiler_settings, sources)::text,
      'UTF8')),
    language, compiler, compiler_version, compiler_settings, sources, file_name, contract_name, abi,
    compiled_creation_code, compiled_runtime_code, compiled_artifacts - 'abi', verified_at
  from verified_contracts order by compilation_id, verified_at;

alter table verified_contracts alter column compilation_id set not null;
alter table verified_contracts add constraint verified_contracts_compilation_fk
  foreign key (compilation_id) references verified_compilations (id);
create index verified_contracts_compilation_idx on verified_contracts (compilation_id);
alter table verified_contracts
  drop column language,
  drop column compiler,
  drop column compiler_version,
  drop column compiler_settings,
  drop column sources,
  drop column file_name,
  drop column contract_name,
  drop column abi,
  drop column compiled_creation_code,
  drop column compiled_runtime_code,
  drop column compiled_artifacts;
