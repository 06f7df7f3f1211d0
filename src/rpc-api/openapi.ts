import { Type } from "@sinclair/typebox";
import type { AnswerSpec } from "./answer-spec.js";
import { RPC_MODULES } from "./index.js";
import type { ParamSpec } from "./param-spec.js";

/** Every action name of a module, sorted. */
const actionsOf = (module: string): string[] =>
  RPC_MODULES[module]!.flatMap((g) => Object.keys(g.actions)).sort();

/** Every `module.action` with its declared parameters and answers, in the table's order. */
function actionParams(): Array<{
  key: string;
  params: readonly ParamSpec[];
  answers: readonly AnswerSpec[];
}> {
  return Object.entries(RPC_MODULES).flatMap(([module, groups]) =>
    groups.flatMap((g) =>
      Object.keys(g.actions).map((action) => ({
        key: `${module}.${action}`,
        params: g.params[action] ?? [],
        answers: g.answers[action] ?? [],
      })),
    ),
  );
}

const groupBy = <T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> => {
  const out = new Map<string, T[]>();
  for (const t of items) out.set(key(t), [...(out.get(key(t)) ?? []), t]);
  return out;
};

/**
 * Answers as an OpenAPI Responses Object: one response per HTTP status, each body the schema of its one answer or
 * `anyOf` the answers it may be (an envelope's `status` member tells them apart: "1" the result, "0" a failure,
 * "2" not processed yet), each alternative described.
 */
export function responsesObject(answers: readonly AnswerSpec[]) {
  return Object.fromEntries(
    [...groupBy(answers, (a) => String(a.httpStatus))].map(([status, specs]) => [
      status,
      {
        description: specs.map((a) => a.description).join("; or: "),
        content: Object.fromEntries(
          [...groupBy(specs, (a) => a.contentType ?? "application/json")].map(([type, same]) => {
            const alternatives = same.map((a) => ({ ...a.schema, description: a.description }));
            return [type, { schema: alternatives.length === 1 ? alternatives[0] : { anyOf: alternatives } }];
          }),
        ),
      },
    ]),
  );
}

const SCHEMA: Record<ParamSpec["type"], { type: string; format?: string; pattern?: string }> = {
  address: { type: "string", format: "address" },
  hash: { type: "string", format: "hash", pattern: "^0x[0-9a-fA-F]{64}$" },
  integer: { type: "integer" },
  string: { type: "string" },
  boolean: { type: "string", format: "boolean" },
  hex: { type: "string", format: "hex" },
  file: { type: "string", format: "binary" },
};

/** One parameter as an OpenAPI Parameter Object (in the query, or the form body, which the route reads too). */
const parameterObject = (s: ParamSpec) => ({
  name: s.name,
  in: "query",
  required: s.required === true,
  description: s.description,
  schema: { ...SCHEMA[s.type], ...(s.enum ? { enum: [...s.enum] } : {}) },
});

/**
 * `x-actions` of the `/api` operation: one entry per `module.action`, shaped as an OpenAPI Operation Object: its
 * parameters (where one of several is required, `x-required-one-of`) and its responses, each action's answers by
 * HTTP status (those every action shares, 400 for an unknown module or action, 500 and 503, are the operation's
 * own). OpenAPI has one operation per path and method, and `/api`'s actions differ only by a query value, so they
 * cannot be separate operations; an extension keyed by action keeps each action's exact parameters and answer
 * machine-readable (the operation's query parameters are their union, for Swagger UI).
 */
export function apiActionsExtension() {
  return Object.fromEntries(
    actionParams().map(({ key, params, answers }) => {
      const groups = new Map<string, string[]>();
      for (const s of params)
        if (typeof s.required === "string")
          groups.set(s.required, [...(groups.get(s.required) ?? []), s.name]);
      return [
        key,
        {
          parameters: params.map(parameterObject),
          ...(groups.size ? { "x-required-one-of": [...groups.values()] } : {}),
          responses: responsesObject(answers),
        },
      ];
    }),
  );
}

/**
 * The `/api` request as the OpenAPI document describes it: `module` and `action` from the dispatcher's own table
 * (so the document lists what is served), then every action's parameters, each optional here and described with
 * the actions that read it (which require it is in `x-actions`). Documentation only: the route does not validate
 * with it, as an unknown module or action is Blockscout's 400 envelope, and each action checks its own parameters.
 */
export function apiQuerySchema() {
  const modules = Object.keys(RPC_MODULES).sort();
  const actions = [...new Set(modules.flatMap(actionsOf))].sort();
  const readers = new Map<string, { spec: ParamSpec; by: string[] }>();
  for (const { key, params } of actionParams())
    for (const s of params) {
      const r = readers.get(s.name) ?? { spec: s, by: [] };
      r.by.push(s.required === true ? `${key} (required)` : key);
      readers.set(s.name, r);
    }
  const perAction = Object.fromEntries(
    [...readers.entries()]
      .filter(([name]) => name !== "chainid")
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, { spec, by }]) => [
        name,
        Type.Optional(
          Type.String({
            description: `${spec.description}. Read by ${by.join(", ")}`,
            ...(spec.type === "file" ? { format: "binary" } : {}),
          }),
        ),
      ]),
  );
  return Type.Object(
    {
      module: Type.Union(
        modules.map((m) => Type.Literal(m)),
        { description: "The module (case-insensitive)" },
      ),
      action: Type.Union(
        actions.map((a) => Type.Literal(a)),
        {
          description: `The action of the module (case-insensitive): ${modules
            .map((m) => `${m}: ${actionsOf(m).join(", ")}`)
            .join("; ")}. Each action's parameters: the operation's x-actions`,
        },
      ),
      apikey: Type.Optional(Type.String({ description: "Accepted and ignored (no API keys here)" })),
      chainid: Type.Optional(
        Type.String({ description: "The verification actions: the chain (default: the indexed one)" }),
      ),
      ...perAction,
    },
    { additionalProperties: true, description: "Parameter names are matched case-insensitively" },
  );
}

/**
 * Answers as a route's `response` schemas (one per HTTP status, `anyOf` where an answer may be one of several), for
 * the routes that answer as one action (the `/api/legacy` bridges): documentation only, as those routes send their
 * answer as plain JSON (sendAnswer).
 */
export function routeResponses(answers: readonly AnswerSpec[]): Record<number, object> {
  return Object.fromEntries(
    [...groupBy(answers, (a) => String(a.httpStatus))].map(([status, specs]) => {
      const description = specs.map((a) => a.description).join("; or: ");
      const alternatives = specs.map((a) => ({ ...a.schema, description: a.description }));
      return [
        Number(status),
        alternatives.length === 1 ? alternatives[0]! : { anyOf: alternatives, description },
      ];
    }),
  );
}
