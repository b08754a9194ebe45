import "server-only";
import { randomBytes } from "node:crypto";
import { pathModule, STATUS_MODULES, type StatusModule } from "@/server/wire/modules";
import { ApiError } from "./errors";

/** Faults injected through the control API: latency, 5xx or 429 for the next N calls whose path matches. */
export type FaultType = "LATENCY" | "ERROR" | "RATE_LIMIT";

export interface Fault {
  fault_id: string;
  path_pattern: string;
  type: FaultType;
  remaining: number;
  latency_ms: number;
  status: number;
}

const ERROR_CODES: Record<number, string> = {
  500: "INTERNAL_ERROR",
  502: "BAD_GATEWAY",
  503: "SERVICE_NOT_AVAILABLE",
  504: "GATEWAY_TIMEOUT",
};
export const FAULT_STATUSES = Object.keys(ERROR_CODES).map(Number);

/** `*` matches any run of characters; anything else is literal. */
function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

export class FaultStore {
  private faults: (Fault & { re: RegExp })[] = [];

  add(f: Omit<Fault, "fault_id">): Fault {
    const fault = { ...f, fault_id: randomBytes(8).toString("hex") };
    this.faults.push({ ...fault, re: globToRegExp(f.path_pattern) });
    return fault;
  }

  list(): Fault[] {
    return this.faults.map(({ re: _re, ...f }) => f);
  }

  clear() {
    this.faults = [];
  }

  /** Consumes the faults matching this call: waits for latency ones, throws for error ones. */
  apply(path: string): Promise<void> | undefined {
    // No fault set (the usual case): nothing to consume, and no promise to wait for.
    return this.faults.length === 0 ? undefined : this.consume(path);
  }

  private async consume(path: string): Promise<void> {
    const hits = this.faults.filter((f) => f.remaining > 0 && f.re.test(path));
    for (const f of hits) f.remaining -= 1;
    this.faults = this.faults.filter((f) => f.remaining > 0);
    for (const f of hits) {
      if (f.type === "LATENCY") await new Promise((r) => setTimeout(r, f.latency_ms));
    }
    const failure = hits.find((f) => f.type !== "LATENCY");
    if (!failure) return;
    if (failure.type === "RATE_LIMIT") throw new ApiError(429, "TOO_MANY_REQUESTS", "Too many requests (injected).");
    const status = failure.status;
    throw new ApiError(status, ERROR_CODES[status] ?? "INTERNAL_ERROR", "Injected failure.");
  }
}

/** A module's switch (`POST /sandbox/modules/{module}`): every call of its paths fails, or slows and fails at a rate. */
export interface ModuleFault {
  module: StatusModule;
  state: "outage" | "degraded" | "normal";
  latency_ms: number;
  error_rate: number;
}

/** Per module, until set back to normal; applied before authentication, as a module's outage at the gateway is. */
export class ModuleFaults {
  private byModule = new Map<StatusModule, ModuleFault>();

  constructor(private readonly random: () => number = Math.random) {}

  set(f: ModuleFault): ModuleFault {
    if (f.state === "normal") this.byModule.delete(f.module);
    else this.byModule.set(f.module, f);
    return f;
  }

  list(): ModuleFault[] {
    return STATUS_MODULES.filter((m) => m !== "event-stream").map(
      (module) => this.byModule.get(module) ?? { module, state: "normal", latency_ms: 0, error_rate: 0 },
    );
  }

  clear() {
    this.byModule.clear();
  }

  apply(path: string): Promise<void> | undefined {
    return this.byModule.size === 0 ? undefined : this.consume(path);
  }

  private async consume(path: string): Promise<void> {
    const target = pathModule(path);
    const f = target && this.byModule.get(target);
    if (!f) return;
    if (f.latency_ms > 0) await new Promise((r) => setTimeout(r, f.latency_ms));
    if (f.state === "outage" || this.random() < f.error_rate) {
      throw new ApiError(503, ERROR_CODES[503], `The ${target} module is unavailable (sandbox control).`);
    }
  }
}
