import { Type } from "@sinclair/typebox";
import { invalidValue } from "../../explorer/errors.js";
import { type ErrorCause, type ErrorShape, INTERNAL_FAILURE, statusMessage } from "../../http/dialects.js";

/** Blockscout's 422 body (OpenApiSpex's JsonRenderErrorV2), for the OpenAPI document. */
export const InvalidValueBody = Type.Object({
  errors: Type.Array(
    Type.Object({
      title: Type.String(),
      source: Type.Object({ pointer: Type.String() }),
      detail: Type.String(),
    }),
  ),
});
export const MessageBody = Type.Object({ message: Type.String() });

/** The 422 of a body or path that failed its schema, pointed at the member as Blockscout points. */
function validationAnswer(cause: Extract<ErrorCause, { kind: "validation" }>): ErrorShape {
  const err = cause.error;
  const v = err.validation?.[0];
  const ctx = err.validationContext;
  const field =
    (v?.params as { missingProperty?: string } | undefined)?.missingProperty ??
    v?.instancePath.replace(/^\//, "") ??
    "";
  // Blockscout names path parameters `<name>_param` in its pointers.
  const pointer = ctx === "params" && field && !field.endsWith("_param") ? `/${field}_param` : `/${field}`;
  const detail =
    ctx === "params" && v?.keyword === "pattern"
      ? `Invalid format. Expected ~r/${(v.params as { pattern: string }).pattern}/`
      : (v?.message ?? "Invalid value");
  return { status: 422, body: invalidValue(pointer, detail) };
}

/**
 * Blockscout's dialect, which the verify form speaks as the explorer does: bad input is a 422 with `errors[]`,
 * a missing route or a transport limit `{message}` with its status.
 */
export function blockscoutError(status: number, message: string, cause?: ErrorCause): ErrorShape {
  switch (cause?.kind ?? "framework") {
    case "validation":
      return validationAnswer(cause as Extract<ErrorCause, { kind: "validation" }>);
    case "invalid-input":
      return {
        status: 422,
        body: invalidValue(`/${(cause as { field?: string }).field ?? ""}`, message),
      };
    case "request":
      return { status, body: { message } };
    case "internal":
      return INTERNAL_FAILURE;
    case "unavailable":
      return { status: 503, body: { message } };
    case "not-found": {
      // Blockscout's router ends /api/v2 with a GET catch-all (FallbackController :unknown_action); Phoenix
      // answers HEAD with the GET route. Other methods find no route at all: 404.
      const method = (cause as { method?: string }).method;
      return method === "GET" || method === "HEAD"
        ? { status: 400, body: { message: "Unknown API v2 action" } }
        : { status: 404, body: { message: statusMessage(404) } };
    }
    default:
      if (status >= 500) return INTERNAL_FAILURE;
      return status === 400
        ? { status: 422, body: invalidValue("/", message) }
        : { status, body: { message } };
  }
}
