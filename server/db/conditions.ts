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
