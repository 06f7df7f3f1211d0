import { Type } from "@sinclair/typebox";

/** The 401 body of a request that needs a signed-in account. */
export const UnauthorizedSchema = Type.Object(
  { message: Type.Literal("Unauthorized") },
  { description: "No signed-in account (Lookout has no user accounts)" },
);
