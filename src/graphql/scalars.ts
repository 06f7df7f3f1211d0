import { GraphQLError, Kind, type ValueNode } from "graphql";
import { usecTimestamp } from "../explorer/timestamp.js";

/**
 * Blockscout's scalars (`Schema.Scalars` and Absinthe's custom types) as their values travel: hashes lower-case
 * 0x-hex, wei and decimals as decimal strings, times ISO 8601 with microseconds, JSON as a JSON string. Each parses
 * what Blockscout's cast accepts and rejects the rest with a GraphQL error (never a 5xx).
 */
/** How a scalar of the schema (TYPE_DEFS, with its description) reads and writes its values. */
type ScalarBehaviour = {
  serialize: (v: unknown) => unknown;
  parseValue: (v: unknown) => unknown;
  parseLiteral: (ast: ValueNode) => unknown;
};

function scalar(
  name: string,
  parse: (v: unknown) => unknown,
  serialize: (v: unknown) => unknown = (v) => v,
): ScalarBehaviour {
  const parseValue = (v: unknown) => {
    const out = parse(v);
    if (out === undefined) throw new GraphQLError(`Invalid ${name}: ${JSON.stringify(v)}`);
    return out;
  };
  return {
    serialize,
    parseValue,
    parseLiteral(ast: ValueNode) {
      if (ast.kind === Kind.STRING) return parseValue(ast.value);
      if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return parseValue(ast.value);
      throw new GraphQLError(`Invalid ${name}: expected a string`);
    },
  };
}

const hexOf = (bytes: number) => {
  const re = new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`);
  return (v: unknown) => (typeof v === "string" && re.test(v) ? v.toLowerCase() : undefined);
};

const decimalString = (v: unknown) => {
  const s = typeof v === "number" && Number.isFinite(v) ? String(v) : v;
  return typeof s === "string" && /^-?\d+(\.\d+)?$/.test(s) ? s : undefined;
};

export const SCALARS = {
  AddressHash: scalar("AddressHash", hexOf(20)),
  FullHash: scalar("FullHash", hexOf(32)),
  NonceHash: scalar("NonceHash", (v) =>
    typeof v === "string" && /^(0x[0-9a-fA-F]{16}|\d+)$/.test(v) ? v.toLowerCase() : undefined,
  ),
  Data: scalar("Data", (v) =>
    typeof v === "string" && /^0x([0-9a-fA-F]{2})*$/.test(v) ? v.toLowerCase() : undefined,
  ),
  Wei: scalar("Wei", (v) => {
    const s = decimalString(v);
    return s && /^\d+$/.test(s) ? s : undefined;
  }),
  Decimal: scalar("Decimal", decimalString),
  DateTime: scalar(
    "DateTime",
    (v) => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? new Date(v) : undefined),
    (v) => (v instanceof Date ? usecTimestamp(v) : v),
  ),
  Json: scalar(
    "Json",
    (v) => {
      if (typeof v !== "string") return undefined;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return undefined;
      }
    },
    (v) => JSON.stringify(v),
  ),
};
