import "server-only";

/**
 * A listing's filter as SQL conditions and their parameters, for `keysetPage` or a query of its own: `add` pushes a
 * value and writes its condition around the value's placeholder, numbered `$offset+1…` in the order they are added;
 * a condition without a value goes straight into `where`.
 */
export function sqlConditions(offset = 0): {
  where: string[];
  params: unknown[];
  add: (sql: (placeholder: string) => string, value: unknown) => void;
} {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${offset + params.length}`));
  };
  return { where, params, add };
}

/**
 * Known values (enum members, never input) as a literal SQL list, for `IN (…)`: a partial index whose predicate
 * names the same values serves the query, which a parameter's `= ANY($1)` cannot.
 */
export const sqlLiterals = (values: readonly string[]) => values.map((s) => `'${s}'`).join(", ");
