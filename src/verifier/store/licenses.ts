import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** Keeps the license a verify-form submission names with the contract (Blockscout does; the explorer shows it). */
export async function saveContractLicense(
  db: Queryable,
  chainId: string,
  address: string,
  licenseType: string,
): Promise<void> {
  await db.query(
    `insert into contract_licenses (chain_id, address, license_type) values ($1, $2, $3)
     on conflict (chain_id, address) do update set license_type = excluded.license_type`,
    [chainId, toBytea(address), licenseType],
  );
}
