/**
 * Which database failures are transient: the work in flight failed, but the same work can succeed when tried
 * again (a connection the server ended, a statement timeout, a server restarting). Callers retry them (the
 * indexer's step, a job) or answer 503 with Retry-After (HTTP); they are never a reason to stop the process.
 */

/** SQLSTATEs of a session the server ended or could not start, and of work worth retrying. */
const CONNECTION_CODES = new Set([
  "57P01", // admin_shutdown (pg_terminate_backend, a fast shutdown)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, recovery)
  "57P05", // idle_session_timeout
  "25P03", // idle_in_transaction_session_timeout
  "53300", // too_many_connections
]);
const RETRY_CODES = new Set([
  "57014", // query_canceled: statement_timeout
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available (lock_timeout)
]);
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTCONN",
]);
// node-postgres reports a dead socket with these messages and no code.
const LOST_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|server closed the connection unexpectedly/i;

const codeOf = (e: unknown): string | undefined =>
  e && typeof e === "object" && typeof (e as { code?: unknown }).code === "string"
    ? (e as { code: string }).code
    : undefined;

/** The database session was lost (ended by the server, the network, or never established). */
export class ConnectionLostError extends Error {
  override name = "ConnectionLostError";
  readonly code: string;
  constructor(cause: unknown) {
    const m = cause instanceof Error ? cause.message : String(cause);
    super(`The database connection was lost: ${m}`, { cause });
    this.code = codeOf(cause) ?? "connection_lost";
  }
}

export const connectionLost = (cause: unknown) =>
  cause instanceof ConnectionLostError ? cause : new ConnectionLostError(cause);

export function isConnectionLoss(e: unknown): boolean {
  if (e instanceof ConnectionLostError) return true;
  const code = codeOf(e);
  if (code && (CONNECTION_CODES.has(code) || code.startsWith("08") || SOCKET_CODES.has(code))) return true;
  return e instanceof Error && LOST_MESSAGES.test(e.message);
}

export const isStatementTimeout = (e: unknown) => codeOf(e) === "57014";

/** Fails only the work in flight: retry it (or answer 503 with Retry-After). */
export const isTransientDbError = (e: unknown): boolean =>
  isConnectionLoss(e) || RETRY_CODES.has(codeOf(e) ?? "");

/**
 * The database refuses writes (disk full, a read-only database or transaction), by the error's message, as the
 * indexer keeps it (`could not extend file … No space left on device`, `cannot execute INSERT in a read-only
 * transaction`): the writer is failing while every read still works.
 */
export const refusesWrites = (message: string | null | undefined): boolean =>
  !!message && /No space left on device|could not extend file|disk full|read-only transaction/i.test(message);
