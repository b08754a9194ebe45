import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "../helpers/source-files";

/**
 * The import graph of server/, lib/, components/, app/, cli/ (and the root modules), read with a regex over the
 * import / export-from / dynamic import() lines, `@/` and relative paths resolved; packages are not followed.
 * The rules: no cycle; the sandbox imports only itself, server/db/engine and the shared wire module; browser
 * code imports nothing from server/ except server actions ("use server" modules); server/events (the event path) is
 * imported by pages, routes and the job system only; the CLI (cli/, a package installed on its own) imports only
 * itself, Node's modules and its dependencies, and the desk imports only its signing module.
 */
const DIRS = ["server", "lib", "components", "app", "cli"];
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

const SANDBOX_MAY_IMPORT = [/^server\/sandbox\//, /^server\/db\/engine\.ts$/, /^server\/wire\//, /^lib\/broker-enums\.ts$/];

interface Edge {
  to: string;
  typeOnly: boolean;
}

function resolve(from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return undefined; // a package
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext)]) {
    const full = path.join(ROOT, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return candidate;
  }
  return undefined;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[\w*${}\s,]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function edgesOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    const to = resolve(file, spec);
    if (to) edges.push({ to, typeOnly: Boolean(m[2]) });
  }
  return edges;
}

const files = sourceFiles(DIRS);
const texts = new Map(files.map((f) => [f, fs.readFileSync(path.join(ROOT, f), "utf8")]));
const graph = new Map(files.map((f) => [f, edgesOf(f, texts.get(f)!)]));
const directive = (f: string, d: string) => new RegExp(`^(\\s*(//[^\\n]*|/\\*[\\s\\S]*?\\*/)\\s*)*["']${d}["']`).test(texts.get(f) ?? "");

/** Every cycle, each as a path of files (one per strongly connected component, found by depth-first search). */
function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const { to } of graph.get(f) ?? []) {
      if (state.get(to) === "open") found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
}

/** The imports of the files `list` into a module that `to` accepts, each as "file -> module". */
function importsInto(list: string[], to: (module: string) => boolean, edges: Map<string, Edge[]> = graph): string[] {
  return list.flatMap((f) => (edges.get(f) ?? []).filter((e) => to(e.to)).map((e) => `${f} -> ${e.to}`));
}

/** Imports of server/events from server modules outside it and outside the job system, which schedules its jobs. */
function eventsReachedFrom(list: string[], edges: Map<string, Edge[]>): string[] {
  const outside = list.filter((f) => f.startsWith("server/") && !f.startsWith("server/events/") && !f.startsWith("server/jobs/"));
  return importsInto(outside, (m) => m.startsWith("server/events/"), edges);
}

/**
 * A module of Next's request runtime that fails to load outside a Next server (next/navigation creates React contexts
 * the server build of React lacks), or the session's. next/cache loads there (the accounts' update refreshes a path).
 */
const NEXT_RUNTIME = /^(next\/(navigation|headers)|next-auth|@\/auth)$/;
const STATIC_IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[\w*${}\s,]*?\s+from\s+)?["']([^"']+)["']/g;

/** The modules a process entry loads at its start: its static imports of values, followed (not `import()`). */
function loadedAtStart(entry: string): string[] {
  const seen = new Set([entry]);
  for (const f of seen) {
    for (const m of (texts.get(f) ?? "").matchAll(STATIC_IMPORT)) {
      const to = m[2] ? undefined : resolve(f, m[3]);
      if (to && texts.has(to)) seen.add(to);
    }
  }
  return [...seen];
}

/** The static imports of Next's request runtime among `list`, each as "file -> module". */
function nextRuntimeImports(list: string[]): string[] {
  return list.flatMap((f) =>
    [...(texts.get(f) ?? "").matchAll(STATIC_IMPORT)].filter((m) => !m[2] && NEXT_RUNTIME.test(m[3])).map((m) => `${f} -> ${m[3]}`),
  );
}

describe("import rules", () => {
  it("reads the graph (a sanity check of the parser)", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get("server/sandbox/auth.ts")!.map((e) => e.to)).toContain("server/wire/signing.ts");
    expect(graph.get("instrumentation.ts")!.map((e) => e.to)).toContain("server/auth/demo-users.ts");
  });

  it("has no import cycle", () => {
    expect(cycles().map((c) => c.join(" -> "))).toEqual([]);
  });

  it("the sandbox imports only itself, server/db/engine and the shared wire module (server/wire, lib/broker-enums)", () => {
    const outside = importsInto(
      files.filter((f) => f.startsWith("server/sandbox/")),
      (m) => !SANDBOX_MAY_IMPORT.some((ok) => ok.test(m)),
    );
    expect(outside).toEqual([]);
  });

  it("the Broker client knows nothing of the sandbox: only its process entry (server/broker/index.ts) picks the sandbox's adapter", () => {
    const reaching = importsInto(
      files.filter((f) => f.startsWith("server/broker/") && f !== "server/broker/index.ts"),
      (m) => /^server\/(sandbox|sandbox-control)\//.test(m),
    );
    expect(reaching).toEqual([]);
    const outsideSandbox = importsInto(
      files.filter((f) => !f.startsWith("server/sandbox/")),
      (m) => m.startsWith("server/sandbox/"),
    );
    expect(outsideSandbox).toEqual([]);
  });

  it("server/actions is the top layer: only action files, imported only by pages and components", () => {
    const actions = files.filter((f) => f.startsWith("server/actions/"));
    expect(actions.filter((f) => !directive(f, "use server"))).toEqual([]);
    const reaching = importsInto(
      files.filter((f) => !f.startsWith("app/") && !f.startsWith("components/") && !f.startsWith("server/actions/")),
      (m) => m.startsWith("server/actions/"),
    );
    expect(reaching).toEqual([]);
  });

  it("browser code (components/, client components under app/) imports from server/ only server actions", () => {
    const browser = files.filter((f) => f.startsWith("components/") || (f.startsWith("app/") && directive(f, "use client")));
    const reaches = importsInto(browser, (m) => m.startsWith("server/") && !directive(m, "use server"));
    expect(reaches).toEqual([]);
  });

  it("server/events is the event path, imported by no other server module but the job system (server/jobs)", () => {
    expect(eventsReachedFrom(files, graph)).toEqual([]);
    // The check fails on a violating import: a domain module importing the event path.
    const violating = new Map([...graph, ["server/orders/example.ts", [{ to: "server/events/sync.ts", typeOnly: false }]]]);
    expect(eventsReachedFrom([...files, "server/orders/example.ts"], violating)).toEqual([
      "server/orders/example.ts -> server/events/sync.ts",
    ]);
  });

  it("the background process (consumer and job system) loads nothing of Next's request runtime, which it does not run in", () => {
    const loaded = loadedAtStart("server/events/main.ts");
    // It does load the job system and the approvals' recovery (through the registry of approvable operations).
    expect(loaded).toEqual(
      expect.arrayContaining(["server/jobs/runtime.ts", "server/approvals/recover.ts", "server/approvals/registry.ts"]),
    );
    expect(nextRuntimeImports(loaded)).toEqual([]);
    // The check sees such an import: the action kit's audited steps use Next's rethrow.
    expect(nextRuntimeImports(["server/action-kit/perform.ts"])).toEqual(["server/action-kit/perform.ts -> next/navigation"]);
  });

  it("the CLI stands alone: itself, Node's modules and its package's dependencies; the desk imports only its signing", () => {
    const cli = files.filter((f) => f.startsWith("cli/"));
    expect(cli.length).toBeGreaterThan(10);
    expect(importsInto(cli, (m) => !m.startsWith("cli/"))).toEqual([]);
    const deps = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, "cli/package.json"), "utf8")).dependencies);
    const packages = cli.flatMap((f) =>
      [...texts.get(f)!.matchAll(IMPORT)]
        .map((m) => m[3] ?? m[4])
        .filter((spec) => !spec.startsWith(".") && !spec.startsWith("node:") && !deps.some((d) => spec === d || spec.startsWith(`${d}/`)))
        .map((spec) => `${f} -> ${spec}`),
    );
    expect(packages).toEqual([]);
    const signing = [...texts.get("cli/src/signing.ts")!.matchAll(IMPORT)].map((m) => m[3] ?? m[4]);
    expect(signing).toEqual(["node:crypto"]);
    const desk = files.filter((f) => !f.startsWith("cli/"));
    expect(importsInto(desk, (m) => m.startsWith("cli/") && m !== "cli/src/signing.ts")).toEqual([]);
  });
});
