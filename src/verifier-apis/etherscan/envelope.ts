/**
 * The Etherscan response envelope: always HTTP 200, `status` "1" or "0", and the exact `result` strings that
 * forge and hardhat-verify compare against (spec: verification-engines-and-clients.md §3).
 */
export type Envelope = { status: "0" | "1"; message: string; result: unknown };

export const ok = (result: unknown): Envelope => ({ status: "1", message: "OK", result });
export const notOk = (result: string, message = "NOTOK"): Envelope => ({ status: "0", message, result });

export const TEXT = {
  pending: "Pending in queue",
  pass: "Pass - Verified",
  fail: "Fail - Unable to verify",
  alreadyVerifiedStatus: "Already Verified",
  unknownGuid: "Unknown UID",
  alreadyVerifiedSubmit: "Contract source code already verified",
  notVerified: "Contract source code not verified",
  noCode: (address: string) => `Unable to locate ContractCode at ${address}`,
  noData: "No data found",
} as const;
