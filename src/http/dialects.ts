import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { isStatementTimeout, isTransientDbError } from "../db/failures.js";

/**
 * Errors that Fastify or Node answer before any API plugin sees the request (a malformed URL, an unknown route or
 * method, a request line or headers too long, a request too slow), in the error dialect of the API the path
 * belongs to: Blockscout's for `/api/v2`, the proxy verifier's `{code, message}` for `/api/v1`, Etherscan's
 * envelope for the rest of `/api`, Sourcify's error object for `/sourcify`, `{message}` elsewhere.
 */
export type Dialect = "blockscout" | "verifier" | "etherscan" | "sourcify" | "plain";

export function dialectOf(url: string): Dialect {
  const path = url.split("?")[0]!.toLowerCase();
  const under = (p: string) => path === p || path.startsWith(`${p}/`);
  // eth-bytecode-db's routes under /api/v2 speak the verifier's `{code, message}`, not Blockscout's.
  if (under("/api/v2/verifier") || under("/api/v2/bytecodes")) return "verifier";
  if (under("/api/v2")) return "blockscout";
  if (under("/api/v1")) return "verifier";
  if (under("/api/docs")) return "plain";
  if (under("/api")) return "etherscan";
  if (under("/sourcify")) return "sourcify";
  return "plain";
}

const MESSAGES: Record<number, string> = {
  400: "Bad request",
  404: "Not found",
  408: "Request timeout: the request was not received in time",
  413: "Request body is too large",
  414: "URI too long",
  415: "Unsupported media type",
  431: "Request header fields too large",
};

export const statusMessage = (status: number) => MESSAGES[status] ?? STATUS_CODES[status] ?? "Error";

/** The HTTP status and body of a client error (status 4xx) in a dialect. */
export function dialectError(
  dialect: Dialect,
  status: number,
  message = statusMessage(status),
): { status: number; body: unknown } {
  switch (dialect) {
    case "blockscout":
      // Bad input is Blockscout's 422 `errors[]`; a missing route or a transport limit is its `{message}`.
      return status === 400
        ? {
            status: 422,
            body: { errors: [{ title: "Invalid value", source: { pointer: "/" }, detail: message }] },
          }
        : { status, body: { message } };
    case "verifier":
      // gRPC codes of Blockscout's actix services: NOT_FOUND 5, INVALID_ARGUMENT 3 (as the plugin's own handler).
      return status === 404
        ? { status, body: { code: 5, message } }
        : { status: 400, body: { code: 3, message } };
    case "etherscan":
      // A path nothing serves is Blockscout's 404 in its RPC envelope (never a 200 a probe or client takes for
      // success); other errors keep Etherscan's HTTP 200 with status "0" (as the plugin's own handler).
      if (status === 404) return { status, body: { status: "0", message: "Not found", result: null } };
      return { status: 200, body: { status: "0", message: "NOTOK", result: message } };
    case "sourcify":
      return status === 404
        ? { status, body: { customCode: "route_not_found", message, errorId: randomUUID() } }
        : { status: 400, body: { customCode: "invalid_parameter", message, errorId: randomUUID() } };
    default:
      return { status, body: { message } };
  }
}

const send = (reply: FastifyReply, dialect: Dialect, status: number, message?: string) => {
  const e = dialectError(dialect, status, message);
  return reply.code(e.status).send(e.body);
};

/**
 * Routes nobody registered, any method. Blockscout answers exactly `{"message":"Not found"}` (clients compare it);
 * the other dialects name the route.
 */
export function notFoundHandler(req: FastifyRequest, reply: FastifyReply): void {
  const dialect = dialectOf(req.url);
  const plain = dialect === "blockscout" || dialect === "plain";
  void send(reply, dialect, 404, plain ? undefined : `Not found: ${req.method} ${req.url.split("?")[0]}`);
}

/** The app-level error handler: what no API plugin handled (errors of hooks, of routes outside the plugins). */
export function rootErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) {
    const transient = transientFailureReply(err, req, reply);
    if (transient) return transient;
    req.log.error({ err }, "Request failed");
    const dialect = dialectOf(req.url);
    // Still in the dialect, and never with internals in the message.
    if (dialect === "etherscan")
      return reply.code(200).send(dialectError(dialect, 400, "Internal error").body);
    return reply.code(500).send({ message: "Internal server error" });
  }
  return send(reply, dialectOf(req.url), status, err.message);
}

/** Fastify's `frameworkErrors`: a path that is not valid percent-encoding (FST_ERR_BAD_URL), and the like. */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message =
    err.code === "FST_ERR_BAD_URL"
      ? "Malformed URL: invalid percent-encoding in the path"
      : statusMessage(status);
  void send(reply, dialectOf(req.url), status, message);
}

/** What Node's HTTP parser rejected, by its error code. */
function clientErrorStatus(code: string | undefined): number {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return 431;
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return 408;
    case "HPE_URI_TOO_LONG":
      return 414;
    default:
      return 400;
  }
}

/**
 * Fastify's `clientErrorHandler`: the request never became a request (unknown method, malformed request line,
 * headers too large, too slow). The path, when the request line was read, picks the dialect; the connection closes.
 */
export function clientErrorHandler(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.alloc(0);
  const line = raw.subarray(0, 4096).toString("latin1").split("\r\n")[0] ?? "";
  const target = line.split(" ")[1] ?? "";
  const status = clientErrorStatus(err.code);
  const e = dialectError(dialectOf(target.startsWith("/") ? target : ""), status);
  const body = JSON.stringify(e.body);
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? "Error"}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A request member no column can hold: a non-finite number, or text with a NUL character (PostgreSQL text). */
function unstorable(value: unknown): string | null {
  if (typeof value === "number" && !Number.isFinite(value)) return "must be a finite integer";
  if (typeof value === "string" && value.includes("\u0000")) return "must not contain NUL characters";
  if (Array.isArray(value)) for (const v of value) if (unstorable(v)) return unstorable(v);
  return null;
}

/**
 * Query and path members that JSON-schema coercion let through but that no column holds (`Infinity`, `1e400`,
 * `-Infinity` for integers, text with `%00`): rejected after validation as a validation error, which each plugin
 * renders in its dialect.
 */
export async function rejectNonFiniteNumbers(req: FastifyRequest) {
  for (const [context, values] of [
    ["querystring", req.query],
    ["params", req.params],
  ] as const) {
    if (!values || typeof values !== "object") continue;
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      const problem = unstorable(value);
      if (problem) {
        const err = new Error(`${key} ${problem}`) as FastifyError;
        err.statusCode = 400;
        err.validation = [
          {
            keyword: "type",
            instancePath: `/${key}`,
            schemaPath: "",
            params: {},
            message: problem,
          },
        ];
        err.validationContext = context;
        throw err;
      }
    }
  }
}

/** Seconds a client should wait before retrying a request that failed on a transient database failure. */
export const RETRY_AFTER_S = 1;

/**
 * A transient database failure (a lost connection, a statement timeout, a server restarting) failed this request,
 * not the service: 503 with Retry-After in the dialect of the path (Etherscan's envelope keeps its HTTP 200), logged
 * as a warning without a stack. Returns null for any other error.
 */
export function transientFailureReply(
  err: unknown,
  req: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | null {
  if (!isTransientDbError(err)) return null;
  const timeout = isStatementTimeout(err);
  req.log.warn(
    { code: (err as { code?: string }).code, reason: (err as Error).message },
    timeout
      ? "Request hit the statement timeout; answered 503"
      : "Request hit a database failure; answered 503",
  );
  const message = timeout
    ? "The database did not answer in time; please retry"
    : "The database is temporarily unavailable; please retry";
  reply.header("retry-after", String(RETRY_AFTER_S));
  const dialect = dialectOf(req.url);
  switch (dialect) {
    case "verifier":
      return reply.code(503).send({ code: 14, message }); // gRPC UNAVAILABLE
    case "etherscan":
      return reply.code(200).send({ status: "0", message: "NOTOK", result: message });
    case "sourcify":
      return reply.code(503).send({ customCode: "internal_error", message, errorId: randomUUID() });
    default:
      return reply.code(503).send({ message });
  }
}
