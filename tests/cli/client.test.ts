import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { deskError, EXIT, exitCodeOfStatus } from "@/cli/src/errors";
import { DeskClient } from "@/cli/src/http";
import { main } from "@/cli/src/main";
import { Prompter } from "@/cli/src/prompt";
import { sign } from "@/cli/src/signing";

const PROFILE = { desk: "http://desk.test", access_key_id: "bdak_k", secret_key: "bdsk_s", session: "bdcs_t" };

/** A fetch that answers from a list (an Error is a network failure) and keeps what it was sent. */
function fakeFetch(answers: (number | Error)[]) {
  const sent: { url: string; init: RequestInit }[] = [];
  const fn = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const next = answers.shift() ?? 200;
    if (next instanceof Error) throw next;
    return new Response(JSON.stringify({ status: next }), { status: next });
  }) as unknown as typeof fetch;
  return { fn, sent };
}

const client = (f: typeof fetch) => new DeskClient(PROFILE, { fetch: f, retryBaseMs: 0, now: () => 1_767_225_600_000 });

describe("the desk client", () => {
  it("signs what it sends: the path, the query, the exact body, a fresh nonce each attempt", async () => {
    const { fn, sent } = fakeFetch([503, 200]);
    const answer = await client(fn).send({
      method: "POST",
      path: "/api/skills/find-orders",
      query: { b: "x y", a: "1" },
      body: { view: "open" },
      session: true,
      retry: "safe",
    });
    expect(answer.status).toBe(200);
    expect(sent).toHaveLength(2);
    const headers = sent.map((s) => s.init.headers as Record<string, string>);
    expect(headers[0]["x-brokerdesk-nonce"]).not.toBe(headers[1]["x-brokerdesk-nonce"]);
    for (const [i, h] of headers.entries()) {
      expect(sent[i].init.body).toBe('{"view":"open"}');
      expect(h.authorization).toBe("Bearer bdcs_t");
      expect(h["x-brokerdesk-key"]).toBe("bdak_k");
      expect(h["x-brokerdesk-signature"]).toBe(
        sign("bdsk_s", {
          method: "POST",
          path: "/api/skills/find-orders",
          query: "b=x+y&a=1",
          body: '{"view":"open"}',
          timestamp: "1767225600000",
          nonce: h["x-brokerdesk-nonce"],
        }),
      );
    }
  });

  it("retries reads and keyed writes on network failures, 429 and 502–504, three attempts in all", async () => {
    const { fn, sent } = fakeFetch([new TypeError("fetch failed"), 429, 502]);
    const answer = await client(fn).send({ method: "POST", path: "/api/skills/x", body: {}, retry: "safe" });
    expect(answer.status).toBe(502);
    expect(sent).toHaveLength(3);
  });

  it("never repeats a write without its own id, and tells a lost answer as a network error", async () => {
    const { fn, sent } = fakeFetch([new TypeError("fetch failed")]);
    await expect(client(fn).send({ method: "POST", path: "/api/skills/x", body: {}, retry: "never" })).rejects.toMatchObject({
      code: "NETWORK",
      exitCode: EXIT.error,
    });
    expect(sent).toHaveLength(1);
    const refused = fakeFetch([503]);
    expect((await client(refused.fn).send({ method: "POST", path: "/api/skills/x", body: {}, retry: "never" })).status).toBe(503);
    expect(refused.sent).toHaveLength(1);
  });

  it("does not retry what the desk refused", async () => {
    const { fn, sent } = fakeFetch([400]);
    expect((await client(fn).send({ method: "GET", path: "/api/skills", retry: "safe" })).status).toBe(400);
    expect(sent).toHaveLength(1);
  });
});

describe("exit codes", () => {
  it("maps the desk's answers onto the contract's codes", () => {
    expect([200, 202, 400, 401, 403, 404, 422, 429, 500, 502].map(exitCodeOfStatus)).toEqual([0, 5, 2, 3, 4, 1, 1, 1, 1, 1]);
    const e = deskError(401, { error: "STALE_TIMESTAMP", message: "Too old." });
    expect(e.exitCode).toBe(3);
    expect(e.toJSON()).toEqual({ error: "STALE_TIMESTAMP", message: "Too old.", status: 401, hint: expect.stringContaining("clock") });
    expect(deskError(403, { error: "FORBIDDEN", message: "No." }).details.hint).toContain("scope");
    expect(deskError(502, "<html>").toJSON()).toMatchObject({ error: "HTTP_502", status: 502 });
  });

  it("answers a usage mistake with 2 and one JSON line on stderr", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "brokerdesk-main-"));
    const run = async (argv: string[]) => {
      let out = "";
      let err = "";
      const io = {
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: (t: string) => (err += t) },
        stdin: new PassThrough(),
        env: { BROKERDESK_CONFIG_DIR: dir },
      };
      return { code: await main(argv, io), out, err };
    };
    const unknown = await run(["profile", "list", "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.err)).toMatchObject({ error: "USAGE", message: expect.stringContaining("--bogus") });
    expect((await run(["profile", "use", "nobody"])).code).toBe(2);
    expect((await run(["completion", "fish"])).code).toBe(2);
    expect((await run(["--output", "xml", "profile", "list"])).code).toBe(2);
    const ok = await run(["profile", "add", "prod", "--desk", "https://desk.test/"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse((await run(["profile", "list"])).out)).toMatchObject({
      rows: [{ name: "prod", current: true, desk: "https://desk.test", session: "none" }],
    });
    expect((await run(["whoami"])).code).toBe(3);
    expect((await run(["--version"])).code).toBe(0);
  });
});

it("keeps piped answers for the questions asked later", async () => {
  const stdin = new PassThrough();
  stdin.end("bdak_one\nbdsk_two\n123456\n");
  let err = "";
  const prompter = new Prompter(stdin, { write: (t: string) => ((err += t), true) } as unknown as NodeJS.WritableStream);
  expect(await prompter.ask("Access key id: ")).toBe("bdak_one");
  expect(await prompter.ask("Secret key: ", { secret: true })).toBe("bdsk_two");
  expect(await prompter.ask("Code: ")).toBe("123456");
  await expect(prompter.ask("More: ")).rejects.toMatchObject({ code: "NO_INPUT", exitCode: 2 });
  prompter.close();
  expect(err).toContain("Access key id:");
});
