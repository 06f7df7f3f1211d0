/**
 * A statement whose text depends on a few yes/no facts of a batch (which tables it can have rows in): each
 * combination's text is built once, on first use, and the same text returned after.
 */
export function statementVariants<F extends Record<string, boolean>>(
  build: (flags: F) => string,
): (flags: F) => string {
  const made = new Map<string, string>();
  return (flags) => {
    const key = Object.keys(flags)
      .sort()
      .map((k) => `${k}=${flags[k]}`)
      .join(",");
    let sql = made.get(key);
    if (sql === undefined) {
      sql = build(flags);
      made.set(key, sql);
    }
    return sql;
  };
}
