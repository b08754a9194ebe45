import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * The edges of the assistant channels that need no caller: RFC 9728's protected-resource document that an MCP client
 * reads after a 401 (on whatever host the client used), and the Host check that CHANNEL_ALLOWED_HOSTS turns on.
 */

const load = async () => {
  vi.resetModules();
  return {
    metadata: (await import("@/app/.well-known/oauth-protected-resource/[[...path]]/route")).GET,
    refuse: (await import("@/server/tools/http")).refuseCrossOrigin,
  };
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("protected-resource metadata", () => {
  it("names each channel as a resource on the host and scheme the client used, with header bearer tokens", async () => {
    const { metadata } = await load();
    const get = async (path: string[] | undefined, host: string, proto?: string) => {
      const request = new Request(`http://internal:3000/.well-known/oauth-protected-resource/${(path ?? []).join("/")}`, {
        headers: { host, ...(proto ? { "x-forwarded-proto": proto } : {}) },
      });
      const res = await metadata(request, { params: Promise.resolve({ path }) });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    expect(await get(["api", "mcp"], "desk.example:8443", "https")).toEqual({
      resource: "https://desk.example:8443/api/mcp",
      resource_name: "Brokerdesk",
      bearer_methods_supported: ["header"],
      scopes_supported: ["read", "write"],
      resource_documentation: "https://desk.example:8443/settings/tokens",
    });
    expect((await get(["api", "skills"], "10.1.2.3:3000")).resource).toBe("http://10.1.2.3:3000/api/skills");
    // The bare document (no path) describes the MCP endpoint.
    expect((await get(undefined, "desk.test")).resource).toBe("http://desk.test/api/mcp");
    // Behind two proxies the first X-Forwarded-Proto is the client's; anything but http or https is not a scheme.
    expect((await get(["api", "mcp"], "desk.test", "https, http")).resource).toBe("https://desk.test/api/mcp");
    expect((await get(["api", "mcp"], "desk.test", "javascript")).resource).toBe("http://desk.test/api/mcp");
  });

  const fetchMetadata = async (metadata: Awaited<ReturnType<typeof load>>["metadata"], host: string) =>
    metadata(new Request("http://internal:3000/.well-known/oauth-protected-resource/api/mcp", { headers: { host } }), {
      params: Promise.resolve({ path: ["api", "mcp"] }),
    });

  it("is never stored by a cache: it is made from the request's Host and X-Forwarded-Proto", async () => {
    const { metadata } = await load();
    const res = await fetchMetadata(metadata, "desk.test");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("with CHANNEL_ALLOWED_HOSTS, refuses a Host outside the list (403, nothing naming it) and answers the listed ones", async () => {
    vi.stubEnv("CHANNEL_ALLOWED_HOSTS", "desk.example");
    const { metadata } = await load();
    const refused = await fetchMetadata(metadata, "evil.example");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.json()).toMatchObject({ error: "FORBIDDEN_HOST" });
    const served = await fetchMetadata(metadata, "desk.example");
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ resource: "http://desk.example/api/mcp" });
  });
});

describe("Host and Origin checks", () => {
  const request = (headers: Record<string, string>) => new Request("http://desk.test/api/mcp", { method: "POST", headers });

  it("answers any host by default, and refuses another site's page by its Origin", async () => {
    const { refuse } = await load();
    expect(refuse(request({ host: "anything.example" }))).toBeUndefined();
    expect(refuse(request({ host: "desk.test", origin: "http://desk.test" }))).toBeUndefined();
    const other = refuse(request({ host: "desk.test", origin: "https://evil.example" }));
    expect(other?.status).toBe(403);
    expect(await other?.json()).toMatchObject({ error: "FORBIDDEN_ORIGIN" });
    expect(refuse(request({ host: "desk.test", origin: "not a url" }))?.status).toBe(403);
  });

  it("with CHANNEL_ALLOWED_HOSTS, refuses a Host outside the list (DNS rebinding) and lets the listed ones through", async () => {
    vi.stubEnv("CHANNEL_ALLOWED_HOSTS", "desk.example, desk.example:8443");
    const { refuse } = await load();
    expect(refuse(request({ host: "desk.example" }))).toBeUndefined();
    expect(refuse(request({ host: "DESK.example:8443" }))).toBeUndefined();
    const rebound = refuse(request({ host: "attacker.example" }));
    expect(rebound?.status).toBe(403);
    expect(await rebound?.json()).toMatchObject({ error: "FORBIDDEN_HOST" });
  });

  it("with CHANNEL_ALLOWED_ORIGINS, lets a listed origin of another host through", async () => {
    vi.stubEnv("CHANNEL_ALLOWED_ORIGINS", "https://console.example");
    const { refuse } = await load();
    expect(refuse(request({ host: "desk.test", origin: "https://console.example" }))).toBeUndefined();
    expect(refuse(request({ host: "desk.test", origin: "https://other.example" }))?.status).toBe(403);
  });
});
