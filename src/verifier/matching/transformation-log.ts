import type { Hex, Transformation, TransformationReason, TransformationValues } from "./types.js";

/** Transformations applied to one compiled code, with their values, in the order applied. */
export type TransformationLog = { transformations: Transformation[]; values: TransformationValues };

export function emptyLog(): TransformationLog {
  return { transformations: [], values: {} };
}

export function record(
  log: TransformationLog,
  type: Transformation["type"],
  reason: TransformationReason,
  offset: number,
  id?: string,
): void {
  log.transformations.push(id === undefined ? { type, reason, offset } : { type, reason, offset, id });
}

export function setKeyedValue(
  log: TransformationLog,
  key: "libraries" | "immutables" | "cborAuxdata",
  id: string,
  value: Hex,
): void {
  const map = log.values[key] ?? {};
  map[id] = value;
  log.values[key] = map;
}
