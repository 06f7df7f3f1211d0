/**
 * One `/api` action's parameter, as the OpenAPI document lists it. Each action file declares its actions' specs
 * beside their handlers (the handlers read the parameters from `Params` by name, so the spec cannot be inferred);
 * test/rpc-api/action-params.test.ts checks that every action has one and reads nothing outside it.
 */
export type ParamSpec = {
  name: string;
  /** Absent: optional. "one-of:<group>": at least one parameter of the group is required (e.g. address or txhash). */
  required?: true | `one-of:${string}`;
  type: "address" | "hash" | "integer" | "string" | "boolean" | "hex" | "file";
  description: string;
  enum?: readonly string[];
};

export type ActionParams = Readonly<Record<string, readonly ParamSpec[]>>;

const req = (name: string, type: ParamSpec["type"], description: string): ParamSpec => ({
  name,
  required: true,
  type,
  description,
});
const opt = (name: string, type: ParamSpec["type"], description: string): ParamSpec => ({
  name,
  type,
  description,
});

/** An optional parameter taking one of a few values. */
const choice = (name: string, description: string, values: readonly string[]): ParamSpec => ({
  name,
  type: "string",
  description,
  enum: values,
});

export const param = { req, opt, choice };

/** `page` and `offset` (params.ts pageParams): malformed values fall back to the action's defaults. */
export const PAGE_PARAMS: readonly ParamSpec[] = [
  opt("page", "integer", "Page number (positive; page x offset at most 10000)"),
  opt("offset", "integer", "Page size (positive, at most 10000)"),
];

/** Blockscout's optional list parameters (params.ts listOptions). */
export const LIST_PARAMS: readonly ParamSpec[] = [
  ...PAGE_PARAMS,
  choice("sort", "Order by block number (default desc)", ["asc", "desc"]),
  opt("startblock", "integer", "First block number"),
  opt("endblock", "integer", "Last block number"),
  choice("filter_by", "Only where the address is the sender or the recipient", ["from", "to"]),
  opt("start_timestamp", "integer", "Earliest block time (unix seconds)"),
  opt("end_timestamp", "integer", "Latest block time (unix seconds)"),
];
