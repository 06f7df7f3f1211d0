import { execFileSync } from "node:child_process";

/** Tests that run the real CLI in child processes need dist/ current with src/. */
export default function setup() {
  execFileSync(process.execPath, ["scripts/build-if-needed.mjs"], { stdio: "inherit" });
}
