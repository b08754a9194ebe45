import { createBrokerClient, type BrokerClient, type BrokerClientConfig, type BrokerClientDeps } from "@/server/broker/client";

/** The embedded sandbox's demo application (its seed), as tests and benches sign with it. */
export const SANDBOX_APP = { appKey: "brokerdesk-demo-key", appSecret: "brokerdesk-demo-secret" } as const;

/** The desk's Broker client against a sandbox at `baseUrl`: no retries, so a test sees each answer as it came. */
export function sandboxBroker(baseUrl: string, overrides: Partial<BrokerClientConfig> = {}, deps?: BrokerClientDeps): BrokerClient {
  return createBrokerClient(
    {
      kind: "sandbox",
      baseUrl,
      ...SANDBOX_APP,
      algorithm: "HMAC-SHA256",
      pathStyle: "resource",
      timeoutMs: 10_000,
      maxRetries: 0,
      ...overrides,
    },
    deps,
  );
}
