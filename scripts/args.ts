/** A script's command line, as every bench and the load and soak drivers read it: `--name value` options, `--name` flags. */
const argv = process.argv.slice(2);

/** The value after `--name`, or the fallback when the option is absent. */
export function option(name: string): string | undefined;
export function option(name: string, fallback: string): string;
export function option(name: string, fallback?: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
}

export const flag = (name: string) => argv.includes(`--${name}`);

/** The PostgreSQL server a script measures on: `--pg URL`, else DATABASE_URL, else this machine's. */
export const pgUrl = () => option("pg") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
