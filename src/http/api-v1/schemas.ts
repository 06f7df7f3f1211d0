import { Type } from "@sinclair/typebox";

export const Chain = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    iconUrl: Type.Union([Type.String(), Type.Null()]),
    isTestnet: Type.Boolean(),
  },
  {},
);
export const Compiler = Type.Object({ version: Type.String(), evmVersions: Type.Array(Type.String()) }, {});
export const ErrorBody = Type.Object({ code: Type.Integer(), message: Type.String() });
