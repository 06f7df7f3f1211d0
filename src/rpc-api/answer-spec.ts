import { type TSchema, Type } from "@sinclair/typebox";

/**
 * One answer an `/api` action gives: its HTTP status, what it means, and its body's schema (JSON unless
 * `contentType` says otherwise). Each action file's `answers.ts` declares its actions' answers beside them; the
 * OpenAPI document lists them in `x-actions` (openapi.ts), and test/rpc-api/action-answers.test.ts checks real
 * answers from an indexed chain against the document, so the two cannot drift apart.
 */
export type AnswerSpec = {
  httpStatus: number;
  description: string;
  schema: TSchema;
  contentType?: string;
};

export type ActionAnswers = Readonly<Record<string, readonly AnswerSpec[]>>;

// Member formats as Lookout writes them (lower-case hex; numbers as decimal strings, Etherscan's convention).
const DECIMAL = "^[0-9]+$";
export const S = {
  decimal: (description?: string) =>
    Type.String({ pattern: DECIMAL, ...(description ? { description } : {}) }),
  address: () => Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
  hash: () => Type.String({ pattern: "^0x[0-9a-f]{64}$" }),
  data: () => Type.String({ pattern: "^0x([0-9a-f]{2})*$" }),
  /** A JSON-RPC quantity: 0x-hex without leading zeros. */
  quantity: () => Type.String({ pattern: "^0x(0|[1-9a-f][0-9a-f]*)$" }),
  /** `""` where the value is unknown or does not apply (Blockscout writes nil as an empty string). */
  orEmpty: (s: TSchema) => Type.Union([s, Type.Literal("")]),
  /** A closed object: every member listed, none other (the test then catches a member added or lost). */
  item: (members: Parameters<typeof Type.Object>[0], description?: string) =>
    Type.Object(members, { additionalProperties: false, ...(description ? { description } : {}) }),
};

const envelope = (status: "0" | "1" | "2", message: TSchema, result: TSchema) =>
  S.item({ status: Type.Literal(status), message, result });

/** Status "1", message "OK" and the result. */
export const okAnswer = (result: TSchema, description = "The result"): AnswerSpec => ({
  httpStatus: 200,
  description,
  schema: envelope("1", Type.Literal("OK"), result),
});

/** Status "0" with what went wrong in `message`, `result` null: bad or missing input, nothing found. */
export const failAnswer = (description: string, httpStatus = 200): AnswerSpec => ({
  httpStatus,
  description,
  schema: envelope("0", Type.String(), Type.Null()),
});

/** Status "0" with `message` saying nothing matched and an empty list (a list action's "No … found"). */
export const noneAnswer = (message: string): AnswerSpec => ({
  httpStatus: 200,
  description: `Nothing matched: message "${message}", an empty list`,
  schema: envelope("0", Type.Literal(message), Type.Array(Type.Never(), { maxItems: 0 })),
});

/** Status "2": not processed yet (internal transactions of a transaction not traced yet), an empty list. */
export const pendingAnswer = (description: string): AnswerSpec => ({
  httpStatus: 200,
  description,
  schema: envelope("2", Type.String(), Type.Array(Type.Never(), { maxItems: 0 })),
});

/**
 * Status "0" of the verification actions (Etherscan's convention, which forge and hardhat-verify read): the text in
 * `result` with message "NOTOK", or Blockscout's error with the text in `message` and `result` null or a value; bad
 * input ("Invalid request: …") answers this way too.
 */
export const notOkAnswer = (description: string): AnswerSpec => ({
  httpStatus: 200,
  description,
  schema: envelope("0", Type.String(), Type.Union([Type.String(), Type.Null()])),
});

/** A JSON-RPC 2.0 result (the `eth_*` actions answer in this shape, not the envelope). */
export const rpcResultAnswer = (result: TSchema, description: string): AnswerSpec => ({
  httpStatus: 200,
  description,
  schema: S.item({ jsonrpc: Type.Literal("2.0"), result, id: Type.Union([Type.String(), Type.Number()]) }),
});

/** A JSON-RPC 2.0 error object with its code and message. */
export const rpcErrorAnswer = (httpStatus: number, description: string): AnswerSpec => ({
  httpStatus,
  description,
  schema: S.item({
    jsonrpc: Type.Literal("2.0"),
    error: S.item({ code: Type.Integer(), message: Type.String() }),
    id: Type.Union([Type.String(), Type.Number()]),
  }),
});

/**
 * The answers of every action, whatever it is (the `/api` operation's own responses): 400 for a request naming no
 * served module or action, 500 when a read action fails, 503 when the database is unavailable for now.
 */
export const COMMON_ANSWERS: readonly AnswerSpec[] = [
  failAnswer(
    '"Params \'module\' and \'action\' are required parameters", "Unknown module" or "Unknown action"',
    400,
  ),
  failAnswer('A read action failed: "Something went wrong."', 500),
  {
    ...notOkAnswer("The database is unavailable for now (with Retry-After): the reason in `result`"),
    httpStatus: 503,
  },
];
