import { Type } from "@sinclair/typebox";
import { type ErrorCause, type ErrorShape, INTERNAL_FAILURE } from "../../http/dialects.js";

/**
 * The error dialect of Blockscout's actix-prost services (the proxy verifier at /api/v1, eth-bytecode-db under
 * /api/v2): `{code, message}` with gRPC codes; bad input is 400 code 3, never a 5xx.
 */
export const GRPC = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, INTERNAL: 13, UNAVAILABLE: 14 } as const;

export const ActixErrorBody = Type.Object({ code: Type.Integer(), message: Type.String() });

export const actixError = (code: number, message: string) => ({ code, message });

/** serde's words for a body that failed the route's schema, as upstream answers it. */
function deserializeMessage(cause: Extract<ErrorCause, { kind: "validation" }>): string {
  const err = cause.error;
  const v = err.validation?.[0];
  const missing = (v?.params as { missingProperty?: string } | undefined)?.missingProperty;
  const path = `${err.validationContext ?? "body"}${v?.instancePath ? v.instancePath.replace(/\//g, ".") : ""}`;
  return missing
    ? `Json deserialize error: missing field \`${missing}\``
    : `Json deserialize error: ${path} ${v?.message ?? "is invalid"}`;
}

export function actixErrorShape(status: number, message: string, cause?: ErrorCause): ErrorShape {
  switch (cause?.kind ?? "framework") {
    case "validation":
      return {
        status: 400,
        body: actixError(
          GRPC.INVALID_ARGUMENT,
          deserializeMessage(cause as Extract<ErrorCause, { kind: "validation" }>),
        ),
      };
    case "internal":
      return { status: 500, body: actixError(GRPC.INTERNAL, "Internal error") };
    case "unavailable":
      return { status: 503, body: actixError(GRPC.UNAVAILABLE, message) };
    case "invalid-input":
    case "request":
      return { status: 400, body: actixError(GRPC.INVALID_ARGUMENT, message) };
    default:
      if (status >= 500) return INTERNAL_FAILURE;
      return status === 404
        ? { status, body: actixError(GRPC.NOT_FOUND, message) }
        : { status: 400, body: actixError(GRPC.INVALID_ARGUMENT, message) };
  }
}
