import { actixErrorShape } from "../shared/actix-errors.js";

/** eth-bytecode-db's errors: actix-prost's `{code, message}` (bad input 400 code 3), as `/api/v1`'s. */
export const bytecodeDbError = actixErrorShape;
