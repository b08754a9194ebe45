import fs from "node:fs";
import path from "node:path";

/** The repository's root. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The modules that run in the app, at their start: for the source-reading rule tests. */
export const ROOT_FILES = ["auth.ts", "auth.config.ts", "proxy.ts", "instrumentation.ts"];

/** Every .ts/.tsx source file (no .d.ts) under `dirs`, and the root modules, as paths relative to the root. */
export function sourceFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(rel);
      } else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
    }
  };
  dirs.forEach(walk);
  return [...out, ...ROOT_FILES.filter((f) => fs.existsSync(path.join(ROOT, f)))];
}
