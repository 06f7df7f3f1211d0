import { actixErrorShape } from "../shared/actix-errors.js";

/** The `/api/v1` error dialect: the proxy verifier's `{code, message}` (gRPC codes; bad input 400 code 3). */
export const apiV1Error = actixErrorShape;
