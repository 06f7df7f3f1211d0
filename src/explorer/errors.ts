import { type TSchema, Type } from "@sinclair/typebox";
import { type ErrorCause, type ErrorShape, INTERNAL_FAILURE, statusMessage } from "../http/dialects.js";

/** The 422 body of Blockscout 9.x+ (OpenApiSpex's JsonRenderErrorV2). */
export type V2ErrorBody = { errors: Array<{ title: string; source: { pointer: string }; detail: string }> };

export function invalidValue(pointer: string, detail: string): V2ErrorBody {
  return { errors: [{ title: "Invalid value", source: { pointer }, detail }] };
}

export const ADDRESS_HASH_PATTERN = "^0x([A-Fa-f0-9]{40})$";

export const FULL_HASH_PATTERN = "^0x([A-Fa-f0-9]{64})$";
/** Blockscout's 404 body for an unknown transaction or block. */
export const NOT_FOUND = { message: "Not found" } as const;

/** The 422 body as a response schema. */
export const V2ErrorSchema = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        title: Type.String(),
        source: Type.Object({ pointer: Type.String() }),
        detail: Type.String(),
      }),
    ),
  },
  { description: "Invalid input (Blockscout's 422 body)" },
);

export const NotFoundSchema = Type.Object({ message: Type.String() }, { description: "Not found" });

/**
 * The response schemas of an /api/v2 route: its 2xx body, the 422 of bad input and, where the route answers it, the
 * 404. Typed loosely on purpose: the schemas document the answers (the scope serialises with JSON.stringify), the
 * views' own types stay the handlers' return types.
 */
export function answers(ok: TSchema, o: { notFound?: boolean } = {}): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 200: ok };
  if (o.notFound) out[404] = NotFoundSchema;
  out[422] = V2ErrorSchema;
  return out;
}

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
 * Blockscout's error dialect, for `/api/v2` and the verify form (which speaks it too), rendered by the shared
 * handler factory (`http/error-handler.ts`): bad input is a 422 with `errors[]`,
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
