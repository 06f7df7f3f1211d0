import { LookoutError } from "../errors/base.js";

/** A failure of the node's JSON-RPC answer (e.g. one larger than the client reads). */
export class RpcError extends LookoutError {
  override name = "RpcError";
}
