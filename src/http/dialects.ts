import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { isStatementTimeout, isTransientDbError } from "../db/failures.js";

/** An error answer: the HTTP status and the body, in some API's dialect. */
export type ErrorShape = { status: number; body: unknown };

/** Where an error came from, for the dialects that answer them differently. */
export type ErrorCause =
  /** Outside any API plugin: a malformed URL or request, an error of a hook, a 5xx nobody handled. */
  | { kind: "framework" }
  /** A route nobody registered (the message names it: `Not found: GET /path`), asked with `method`. */
  | { kind: "not-found"; method?: string }
  /** A request that failed its route's JSON schema. */
  | { kind: "validation"; error: FastifyError }
  /** Our InvalidInputError: the request cannot be served as sent. */
  | { kind: "invalid-input"; field?: string | undefined }
  /** Any other client error (4xx) inside the plugin: malformed JSON, body too large, wrong content type. */
  | { kind: "request"; error: FastifyError }
  /** A failure on our side inside the plugin (logged; never with internals in the message). */
  | { kind: "internal" }
  /** A transient database failure (a lost connection, a statement timeout): 503, the client may retry. */
  | { kind: "unavailable" };

/**
 * One API's error dialect and plugin: what `src/app` registers, and what `error-handler.ts` renders errors with.
 * `paths` are the URL subtrees whose framework errors (before or outside any plugin) come out in this dialect.
 */
export type DialectDescriptor<Options = never> = {
  name: string;
  /** Where the plugin is registered. */
  prefix: string;
  paths: readonly string[];
  plugin: FastifyPluginAsyncTypebox<Options & { dialect: DialectDescriptor<Options> }>;
  /** The error `status` with `message` as this dialect answers it (`cause` defaults to a framework error). */
  error(status: number, message: string, cause?: ErrorCause): ErrorShape;
};

/** The framework errors' side of a dialect: enough for the table of `createDialectHandlers`. */
export type ErrorDialect = Pick<DialectDescriptor, "name" | "paths" | "error">;

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

/**
 * An error that carries its finished answer (a rate limit's 429, rendered for the path's dialect where it was
 * raised): error handlers send it as it is.
 */
export function presetAnswer(err: unknown): ErrorShape | null {
  const a = (err as { answer?: unknown } | null)?.answer as ErrorShape | undefined;
  return a && typeof a === "object" && typeof a.status === "number" && "body" in a ? a : null;
}

/** A failure nobody handled, outside any dialect that says otherwise: never with internals in the message. */
export const INTERNAL_FAILURE: ErrorShape = { status: 500, body: { message: "Internal server error" } };

/** `{message}` with the status: paths no API claims (and the docs). */
export const plainDialect = (paths: readonly string[]): ErrorDialect => ({
  name: "plain",
  paths,
  error: (status, message, cause) =>
    cause?.kind === "unavailable"
      ? { status: 503, body: { message } }
      : status >= 500
        ? INTERNAL_FAILURE
        : { status, body: { message: cause?.kind === "not-found" ? statusMessage(404) : message } },
});

/**
 * Errors that Fastify or Node answer before any API plugin sees the request (a malformed URL, an unknown route or
 * method, a request line or headers too long, a request too slow), in the dialect of the API the path belongs to:
 * the dialect whose `paths` hold the longest prefix of the path, else `{message}`.
 */
export function createDialectHandlers(table: readonly ErrorDialect[]) {
  const fallback = plainDialect([]);
  const entries = table
    .flatMap((d) => d.paths.map((p) => ({ path: p.toLowerCase(), d })))
    .sort((a, b) => b.path.length - a.path.length);
  const dialectOf = (url: string): ErrorDialect => {
    // A chain's API under /chains/{chain_id} answers in the dialect of the same path at the root.
    const path = url
      .split("?")[0]!
      .toLowerCase()
      .replace(/^\/chains\/\d+(?=\/|$)/, "");
    return entries.find((e) => path === e.path || path.startsWith(`${e.path}/`))?.d ?? fallback;
  };
  const send = (reply: FastifyReply, e: ErrorShape) => reply.code(e.status).send(e.body);

  return {
    dialectOf,
    /** Routes nobody registered, any method. */
    notFoundHandler(req: FastifyRequest, reply: FastifyReply): void {
      const message = `Not found: ${req.method} ${req.url.split("?")[0]}`;
      void send(reply, dialectOf(req.url).error(404, message, { kind: "not-found", method: req.method }));
    },

    /** The app-level error handler: what no API plugin handled (errors of hooks, of routes outside the plugins). */
    rootErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
      const preset = presetAnswer(err);
      if (preset) return send(reply, preset);
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      const transient = transientFailureReply(err, req, reply, dialectOf(req.url));
      if (transient) return transient;
      if (status === 500) req.log.error({ err }, "Request failed");
      return send(reply, dialectOf(req.url).error(status, status === 500 ? "Internal error" : err.message));
    },

    /** Fastify's `frameworkErrors`: a path that is not valid percent-encoding (FST_ERR_BAD_URL), and the like. */
    frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      const message =
        err.code === "FST_ERR_BAD_URL"
          ? "Malformed URL: invalid percent-encoding in the path"
          : statusMessage(status);
      void send(reply, dialectOf(req.url).error(status, message));
    },

    /**
     * Fastify's `clientErrorHandler`: the request never became a request (unknown method, malformed request line,
     * headers too large, too slow). The path, when the request line was read, picks the dialect; the connection
     * closes.
     */
    clientErrorHandler(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) {
      if (err.code === "ECONNRESET" || !socket.writable) {
        socket.destroy();
        return;
      }
      const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.alloc(0);
      const line = raw.subarray(0, 4096).toString("latin1").split("\r\n")[0] ?? "";
      const target = line.split(" ")[1] ?? "";
      const status = clientErrorStatus(err.code);
      const e = dialectOf(target.startsWith("/") ? target : "").error(status, statusMessage(status));
      const body = JSON.stringify(e.body);
      socket.end(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? "Error"}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
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
 * not the service: 503 with Retry-After in the dialect's shape, logged as
 * a warning without a stack. Returns null for any other error.
 */
export function transientFailureReply(
  err: unknown,
  req: FastifyRequest,
  reply: FastifyReply,
  dialect: Pick<ErrorDialect, "error">,
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
  const e = dialect.error(503, message, { kind: "unavailable" });
  return reply.header("retry-after", String(RETRY_AFTER_S)).code(e.status).send(e.body);
}
