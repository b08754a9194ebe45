import fs from "node:fs";
import path from "node:path";
import { Agent } from "undici";
import { serverTime, type Recorder } from "./recorder";

/**
 * One signed-in staff session over HTTP, as a browser drives the desk: its own cookie jar, the sign-in through
 * Auth.js's credentials endpoint, pages and data routes read with the session cookie, and server actions called as
 * the browser calls them (POST with the action's id, the argument encoded as React encodes a plain object). Every
 * request is timed into the recorder under a name (`page /orders`, `GET /api/orders`, `action orders.place`).
 */
const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 30_000, connect: { timeout: 10_000 } });

/** A request that failed, already counted by the recorder under its name. */
export class RequestFailed extends Error {
  constructor(
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

type ActionIds = Record<string, string>;
let actionIds: ActionIds | undefined;

/**
 * The server actions' ids of the build the desk runs, by "<file without extension>#<export>" (e.g.
 * `server/actions/orders#placeOrderTicket`), read from the build's server reference manifest.
 */
export function loadActionIds(buildDir = path.resolve(".next")): ActionIds {
  if (actionIds) return actionIds;
  const manifest = JSON.parse(fs.readFileSync(path.join(buildDir, "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  actionIds = {};
  for (const [id, entry] of Object.entries(manifest.node)) {
    if (!entry.filename || !entry.exportedName) continue;
    actionIds[`${entry.filename.replace(/\.tsx?$/, "")}#${entry.exportedName}`] = id;
  }
  return actionIds;
}

export class Session {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly email: string,
    readonly role: string,
    private readonly recorder: Recorder,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One request, timed under `name`; the response body read in full. A status ≥ 400 (or 3xx unless allowed) is an error. */
  /**
   * A read (GET) whose connection failed, before the answer or in the middle of its body, is read once more, as the
   * pages' reads do (components/data-table/fetch-json.ts; for a page, the person's reload): counted as
   * "(cut, read again)" when the second answers, as the error it is otherwise.
   */
  async request(
    name: string,
    p: string,
    init: { method?: string; headers?: Record<string, string>; body?: string; redirects?: boolean; quiet?: boolean } = {},
  ): Promise<{ status: number; text: string; headers: Headers }> {
    if ((init.method ?? "GET") !== "GET" || init.quiet) return this.once(name, p, init);
    try {
      return await this.once(name, p, { ...init, quiet: true });
    } catch (error) {
      if (!(error instanceof RequestFailed) || error.status !== undefined) {
        this.recorder.fail(name, error instanceof RequestFailed ? `HTTP ${error.status}` : String(error).slice(0, 80));
        throw error;
      }
      const answer = await this.once(name, p, init);
      this.recorder.add(`${name} (cut, read again)`, 0);
      return answer;
    }
  }

  private async once(
    name: string,
    p: string,
    init: { method?: string; headers?: Record<string, string>; body?: string; redirects?: boolean; quiet?: boolean },
  ): Promise<{ status: number; text: string; headers: Headers }> {
    const started = performance.now();
    try {
      const res = await fetch(new URL(p, this.base), {
        method: init.method ?? "GET",
        headers: { cookie: this.cookieHeader(), ...init.headers },
        body: init.body,
        redirect: "manual",
        // @ts-expect-error: undici's dispatcher option of Node's fetch
        dispatcher: agent,
      });
      this.keep(res);
      const text = await res.text();
      const ok = res.status < 300 || (init.redirects === true && res.status < 400);
      this.recorder.add(name, performance.now() - started, ok || init.quiet ? undefined : `HTTP ${res.status}`, serverTime(res.headers));
      if (!ok) throw new RequestFailed(res.status, `${init.method ?? "GET"} ${p}: HTTP ${res.status} ${text.slice(0, 200)}`);
      return { status: res.status, text, headers: res.headers };
    } catch (error) {
      if (error instanceof RequestFailed) throw error;
      const message = (error as Error).message;
      this.recorder.add(name, performance.now() - started, init.quiet ? undefined : message.slice(0, 80));
      throw new RequestFailed(undefined, `${init.method ?? "GET"} ${p}: ${message}`);
    }
  }

  async json<T>(name: string, p: string): Promise<T> {
    return JSON.parse((await this.request(name, p, { headers: { accept: "application/json" } })).text) as T;
  }

  /** Signs in through Auth.js's credentials endpoint (the provider the sign-in page's action calls). */
  async signIn(password: string): Promise<void> {
    const { csrfToken } = JSON.parse((await this.request("sign-in", "/api/auth/csrf")).text) as { csrfToken: string };
    const body = new URLSearchParams({ email: this.email, password, csrfToken, callbackUrl: "/" }).toString();
    const res = await this.request("sign-in", "/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      redirects: true,
    });
    const to = res.headers.get("location") ?? "";
    if (!/(^|; )[^=]*session[^=]*=/.test(this.cookieHeader()) || /error/i.test(to))
      throw new Error(`${this.email}: sign-in refused (${to})`);
  }

  /**
   * Calls a server action as the browser does: POST to the page with the `next-action` header and the argument as
   * React's reply encoding of one plain object (JSON; strings starting with "$" escaped). Returns the action's result.
   */
  async action<T>(name: string, key: string, page: string, arg: unknown): Promise<T> {
    const id = loadActionIds()[key];
    if (!id) throw new Error(`no server action ${key} in the build`);
    const body = JSON.stringify([arg], (_k, v: unknown) => (typeof v === "string" && v.startsWith("$") ? `$${v}` : v));
    const send = (quiet: boolean) =>
      this.request(name, page, {
        method: "POST",
        headers: { "next-action": id, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
        body,
        quiet,
      });
    let answer;
    try {
      answer = await send(true);
    } catch (error) {
      // The instance died under the request, or the balancer had none to give it to: the person sends the same form
      // again (the same client ids: the desk and the upstream make one order or journal of both), once. Counted as
      // "cut, sent again", not as an error, when the second answers; as the error it is otherwise.
      const cut = error instanceof RequestFailed && (error.status === undefined || error.status >= 502);
      if (!cut) {
        this.recorder.fail(name, (error as Error).message.slice(0, 80));
        throw error;
      }
      await new Promise((r) => setTimeout(r, 1_000));
      answer = await send(false);
      this.recorder.add(`${name} (cut, sent again)`, 0);
    }
    // The RSC answer: "0:{…"a":"$@1"…}" then "1:<the result>".
    const line = answer.text.split("\n").find((l) => l.startsWith("1:"));
    if (!line) throw new Error(`${key}: no result in the answer (${answer.text.slice(0, 200)})`);
    return JSON.parse(line.slice(2)) as T;
  }
}
