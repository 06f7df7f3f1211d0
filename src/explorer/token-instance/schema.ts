import { Type } from "@sinclair/typebox";

/** PATCH /tokens/{h}/instances/{id}/refetch-metadata: the acknowledgement. */
export const RefetchSchema = Type.Object({ message: Type.String() });
