import type { Static } from "@sinclair/typebox";
import type { CompilerLanguage } from "../../verifier/compilers/index.js";
import {
  forContracts,
  multiPartRequest,
  parseStandardJsonInput,
  standardJsonRequest,
} from "../../verifier/requests/index.js";
import type { SolidityMultiPartBody, StandardJsonBody, VyperMultiPartBody } from "./schemas.js";

/** `{contracts, compiler, input}`: the input text parsed (a bad one is the user's compilation failure). */
export const standardJsonVerifyRequest = (language: CompilerLanguage, b: Static<typeof StandardJsonBody>) =>
  forContracts(standardJsonRequest(language, b.compiler, parseStandardJsonInput(b.input)), b.contracts);

export const solidityMultiPartVerifyRequest = (b: Static<typeof SolidityMultiPartBody>) =>
  forContracts(
    multiPartRequest("Solidity", b.compiler, {
      sourceFiles: b.sourceFiles,
      evmVersion: b.evmVersion ?? null,
      optimizationRuns: b.optimizationRuns ?? null,
      libraries: b.libraries,
    }),
    b.contracts,
  );

export const vyperMultiPartVerifyRequest = (b: Static<typeof VyperMultiPartBody>) =>
  forContracts(
    multiPartRequest("Vyper", b.compiler, {
      sourceFiles: b.sourceFiles,
      interfaces: b.interfaces ?? null,
      evmVersion: b.evmVersion ?? null,
    }),
    b.contracts,
  );
