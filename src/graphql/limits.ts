import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { CONNECTION_FIELDS } from "./schema.js";

export type GraphqlLimits = {
  /** Blockscout's API_GRAPHQL_MAX_COMPLEXITY (Absinthe's complexity: 1 per field, a page times its items). */
  maxComplexity: number;
  /** Deepest nesting of fields (introspection aside). */
  maxDepth: number;
  /** Largest `first`/`last` of a connection. */
  maxPageSize: number;
};

// The schema's objects are read by shape, not with graphql's `isObjectType` & co: those check the class, and
// mercurius (CommonJS) and this module may hold two copies of graphql's classes (a test runner loads the ES build).
type FieldDef = { type: TypeRef };
type TypeRef = { name?: string; ofType?: TypeRef; getFields?: () => Record<string, FieldDef> };
type Composite = { name: string; getFields?: () => Record<string, FieldDef> };

const namedType = (t: TypeRef): TypeRef => (t.ofType ? namedType(t.ofType) : t);

/** The value of an argument of the operation: a literal, or a variable (mercurius checked its type already). */
function argumentValue(
  field: FieldNode,
  name: string,
  variables: Record<string, unknown>,
  defaults: ReadonlyMap<string, ValueNode>,
): unknown {
  const literal = (v: ValueNode | undefined): unknown => {
    if (!v) return undefined;
    if (v.kind === Kind.VARIABLE)
      return v.name.value in variables ? variables[v.name.value] : literal(defaults.get(v.name.value));
    if (v.kind === Kind.INT) return Number(v.value);
    if (v.kind === Kind.LIST) return v.values.map(literal);
    if (v.kind === Kind.NULL) return null;
    return "value" in v ? v.value : undefined;
  };
  return literal(field.arguments?.find((a) => a.name.value === name)?.value);
}

/**
 * The bounds of one operation, checked after validation and before anything runs: the depth of its fields, the
 * page size of each connection, and its cost as Absinthe computes Blockscout's (each field 1 plus what it selects; a
 * connection `first` or `last` times what each item selects; `addresses` the number of hashes times it). Answers
 * Absinthe's messages ("Field transaction is too complex: complexity is 221 and maximum is 100", "Operation is too
 * complex: …"); empty when within bounds. Introspection (`__schema`, `__type`, `__typename`) costs nothing.
 */
export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: Record<string, unknown> | undefined,
  operationName: string | undefined | null,
  limits: GraphqlLimits,
): GraphQLError[] {
  const op = getOperationAST(document, operationName);
  if (!op) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const variables = rawVariables ?? {};
  const defaults = new Map<string, ValueNode>();
  for (const d of op.variableDefinitions ?? [])
    if (d.defaultValue) defaults.set(d.variable.name.value, d.defaultValue);
  const errors: GraphQLError[] = [];
  const max = limits.maxComplexity;

  const depthOf = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>): number => {
    let deepest = 0;
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value.startsWith("__")) continue;
        deepest = Math.max(deepest, 1 + depthOf(s.selectionSet, seen));
      } else if (s.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(s.selectionSet, seen));
      else if (!seen.has(s.name.value))
        deepest = Math.max(
          deepest,
          depthOf(fragments.get(s.name.value)?.selectionSet, new Set([...seen, s.name.value])),
        );
    }
    return deepest;
  };
  const depth = depthOf(op.selectionSet, new Set());
  if (depth > limits.maxDepth)
    return [new GraphQLError(`Query is too deep: depth is ${depth} and maximum is ${limits.maxDepth}`)];

  const costOf = (
    set: SelectionSetNode | undefined,
    parent: Composite,
    seen: ReadonlySet<string>,
  ): number => {
    let sum = 0;
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.INLINE_FRAGMENT) {
        const t = s.typeCondition ? schema.getType(s.typeCondition.name.value) : parent;
        sum += costOf(s.selectionSet, (t as Composite | undefined) ?? parent, seen);
        continue;
      }
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(s.name.value);
        if (!f || seen.has(s.name.value)) continue;
        const t = schema.getType(f.typeCondition.name.value) as Composite | undefined;
        sum += costOf(f.selectionSet, t ?? parent, new Set([...seen, s.name.value]));
        continue;
      }
      const name = s.name.value;
      if (name.startsWith("__")) continue;
      const def = parent.getFields?.()[name];
      if (!def) continue;
      const type = namedType(def.type);
      const child = s.selectionSet && type.name ? costOf(s.selectionSet, type as Composite, seen) : 0;
      const arg = (a: string) => argumentValue(s, a, variables, defaults);
      const key = `${parent.name}.${name}`;
      let cost: number;
      if (CONNECTION_FIELDS.has(key)) {
        for (const a of ["first", "last"] as const) {
          const n = arg(a);
          if (typeof n === "number" && (n < 0 || n > limits.maxPageSize))
            errors.push(
              new GraphQLError(`Argument "${a}" of ${key} must be from 0 to ${limits.maxPageSize}`, {
                nodes: s,
              }),
            );
        }
        const n = Number(arg("first") ?? arg("last") ?? 0);
        cost = Math.max(0, n) * child;
      } else if (key === "Query.addresses") {
        const hashes = arg("hashes");
        cost = (Array.isArray(hashes) ? hashes.length : 1) * child;
      } else cost = 1 + child;
      if (cost > max)
        errors.push(
          new GraphQLError(
            `Field ${s.alias?.value ?? name} is too complex: complexity is ${cost} and maximum is ${max}`,
            { nodes: s },
          ),
        );
      sum += cost;
    }
    return sum;
  };
  const root = schema.getRootType(op.operation) as Composite | null | undefined;
  const total = root ? costOf(op.selectionSet, root, new Set()) : 0;
  if (total > max)
    errors.push(new GraphQLError(`Operation is too complex: complexity is ${total} and maximum is ${max}`));
  return errors;
}
