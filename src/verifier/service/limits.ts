import { InvalidInputError } from "../../errors/base.js";
import type { StandardJsonInput } from "../compilers/index.js";
import type { VerifyRequest } from "./types.js";

/** Bounds on one verification request; each refusal is an InvalidInputError naming the limit (a 4xx everywhere). */
export const REQUEST_LIMITS = {
  /** Contracts verified by one request (each costs RPC calls, a match and a store write). */
  contracts: 100,
  /** Source files (and Vyper interfaces) in one standard JSON input. */
  sources: 2_000,
  /** Characters of source text in one input, all files together. */
  sourceChars: 15 * 1024 * 1024,
  /** Nesting of objects and arrays in one input (real inputs stay under 10: settings.outputSelection.*.*). */
  depth: 64,
} as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Deepest nesting of objects/arrays in `v`, without recursion (hostile inputs nest thousands deep). */
function tooDeep(v: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue;
    if (d > limit) return true;
    for (const c of Array.isArray(x) ? x : Object.values(x)) {
      if (typeof c === "object" && c !== null) stack.push([c, d + 1]);
    }
  }
  return false;
}

const NUL = "\u0000";

/** Checks one standard JSON input's shape-independent bounds: depth, file names, number and size of sources. */
export function checkInputLimits(input: unknown): void {
  if (tooDeep(input, REQUEST_LIMITS.depth)) {
    throw new InvalidInputError(
      `the standard JSON input is nested more than ${REQUEST_LIMITS.depth} levels deep (limit ${REQUEST_LIMITS.depth})`,
      { field: "input" },
    );
  }
  if (!isObject(input)) return;
  let files = 0;
  let chars = 0;
  for (const group of ["sources", "interfaces"] as const) {
    const entries = input[group];
    if (!isObject(entries)) continue;
    for (const [name, src] of Object.entries(entries)) {
      files++;
      if (name.includes(NUL)) {
        throw new InvalidInputError(`source file name ${JSON.stringify(name)} contains a NUL character`, {
          field: group,
        });
      }
      const content = isObject(src) ? src.content : undefined;
      if (typeof content !== "string") continue;
      // Stored sources are PostgreSQL text/jsonb, which cannot hold NUL; solc would accept it in a comment.
      if (content.includes(NUL)) {
        throw new InvalidInputError(`source file ${JSON.stringify(name)} contains a NUL character`, {
          field: group,
        });
      }
      chars += content.length;
    }
  }
  if (files > REQUEST_LIMITS.sources) {
    throw new InvalidInputError(
      `too many source files: ${files} in one input (limit ${REQUEST_LIMITS.sources} sources per input)`,
      { field: "sources" },
    );
  }
  if (chars > REQUEST_LIMITS.sourceChars) {
    throw new InvalidInputError(
      `sources too large: ${chars} characters in one input (limit ${REQUEST_LIMITS.sourceChars} characters of source in total)`,
      { field: "sources" },
    );
  }
}

/** Every bound of a verify request; called before any I/O (and by the asynchronous APIs before queueing). */
export function checkRequestLimits(req: Pick<VerifyRequest, "contracts" | "input" | "attempts">): void {
  if (req.contracts.length > REQUEST_LIMITS.contracts) {
    throw new InvalidInputError(
      `too many contracts: ${req.contracts.length} in one request (limit ${REQUEST_LIMITS.contracts} contracts per request)`,
      { field: "contracts" },
    );
  }
  const inputs: StandardJsonInput[] = req.input ? [req.input] : [];
  // Multi-part attempts are the same sources with other settings: the first attempt's inputs stand for all.
  for (const input of req.attempts?.[0]?.inputs ?? []) inputs.push(input);
  for (const input of inputs) checkInputLimits(input);
}
