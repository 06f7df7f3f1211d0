-- EIP-7702 set-code transactions (type 4): every authorization of every authorization list, with the authority its
-- signature recovers and the protocol's verdict (Blockscout's signed authorization status). Written by the
-- `authorizations` stage in the batch transaction; a reorganisation deletes `block_number > ancestor`.
create table transaction_authorizations (
  block_number      int8 not null,
  transaction_index int4 not null,
  -- position in the transaction's authorization list
  index             int4 not null,
  transaction_hash  bytea not null,
  -- uint256 as signed (0 = any chain)
  chain_id          numeric not null,
  -- the delegate: its code runs for the authority (the zero address revokes a delegation)
  address           bytea not null,
  nonce             numeric not null,
  -- the signature's y parity (Blockscout's v), r and s, as signed
  v                 numeric not null,
  r                 numeric not null,
  s                 numeric not null,
  -- null when the signature recovers no address
  authority         bytea,
  -- 'ok' | 'invalid_chain_id' | 'invalid_nonce' | 'invalid_signature'
  status            text not null
    check (status in ('ok', 'invalid_chain_id', 'invalid_nonce', 'invalid_signature')),
  primary key (block_number, transaction_index, index)
);

-- The delegation in force at the end of each block where it changed is kept in address_proxies (proxy_type
-- 'eip7702', implementation = the delegate, null after a revocation): address objects, the address page and input
-- decoding read delegations the way they read proxies. Only EOAs can delegate, so such rows never mix with a
-- contract's proxy rows.
