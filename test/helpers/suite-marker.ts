/**
 * Every process the suite starts carries this variable (set once per run by the global setup, inherited by the
 * test workers and whatever they start); the global teardown kills any process still carrying it. Helpers that
 * give a child a fresh environment pass it on with `suiteEnv()`.
 */
export const SUITE_ENV = "LOOKOUT_TEST_SUITE";

export const suiteEnv = (): Record<string, string> => {
  const id = process.env[SUITE_ENV];
  return id ? { [SUITE_ENV]: id } : {};
};
