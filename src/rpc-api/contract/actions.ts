import type { Actions } from "../reply.js";

/** `module=contract` actions beyond the verification module's (src/verifier-apis/etherscan); none yet. */
export const contractListActions: Actions = {};
