/**
 * The facts other parts react to, told by the part that made them true: the indexer committed blocks, a
 * verification finished, the token workers stored a total supply or fetched metadata. Small, so each fits a
 * PostgreSQL NOTIFY payload. The socket is one listener among others (the token workers wake on `blocks`).
 */

/** What the socket reports on `addresses:{hash}` after a verification (Blockscout's `verification_result`). */
export type VerificationResult =
  | { status: "success" }
  | { status: "error"; errors: Record<string, string[]> };

/** A committed range of blocks, with the chain head the indexer saw (the indexing status) when it knew it. */
export type BlocksCommitted = { kind: "blocks"; from: number; to: number; head?: number };

export type VerificationFinished = { kind: "verification"; address: string; result: VerificationResult };

export type TotalSupplyStored = { kind: "total_supply"; token: string; totalSupply: string };

/** Token instances whose metadata was fetched (listeners read the documents from the database). */
export type TokenMetadataFetched = { kind: "token_metadata"; token: string; ids: string[] };

/** What the token workers report. */
export type TokenChange = TotalSupplyStored | TokenMetadataFetched;

export type ChainEvent = BlocksCommitted | VerificationFinished | TokenChange;
