import { randomBytes } from "node:crypto";
import type { Engine } from "@/server/db/engine";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import { tradeFill } from "../bench/fills";
import { signedPost } from "../bench/load";
import { storedEvents } from "./queries";

/**
 * Customers' trading seen by the desk: trade events (fills of orders placed outside the desk, five fills an order)
 * published at the sandbox at `perSecond` (in calls of up to 1,000, every 50 ms or so), never more than `backlog`
 * events ahead of what the consumer stored, so a consumer that cannot keep up shows as a stored rate below the offered
 * one. `kind: "MASTER_DATA"` publishes events the books store without projecting (the soak: they leave no order
 * behind that the upstream does not know).
 */
export class Publisher {
  private published = 0;
  private running = false;
  private loop?: Promise<void>;
  private startStored = 0;
  private startedAt = 0;
  private readonly run = randomBytes(3).toString("hex");
  errors = 0;

  constructor(
    private readonly sandbox: string,
    private readonly db: Engine,
    private readonly perSecond: number,
    private readonly kind: "TRADE" | "MASTER_DATA" = "TRADE",
    private readonly backlog = 10_000,
  ) {}

  private batch(from: number, size: number) {
    return Array.from({ length: size }, (_, k) => {
      const i = from + k;
      if (this.kind === "MASTER_DATA") return { event_type: "MASTER_DATA", payload: { biz_type: "CALENDAR_UPDATE", n: i } };
      return tradeFill(`ld${this.run}`, i, seedAccountId(Math.floor(i / 5) % 16), new Date());
    });
  }

  async start(): Promise<void> {
    this.running = true;
    this.startStored = await storedEvents(this.db);
    this.startedAt = performance.now();
    this.loop = (async () => {
      while (this.running) {
        // What the offered rate allows by now, in calls of up to 1,000.
        const due = Math.floor(((performance.now() - this.startedAt) / 1000) * this.perSecond) - this.published;
        const stored = (await storedEvents(this.db)) - this.startStored;
        if (due <= 0 || this.published - stored >= this.backlog) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        const size = Math.min(1_000, due);
        const events = this.batch(this.published, size);
        const res = await signedPost(this.sandbox, "/sandbox/events/publish", { events }).catch(() => undefined);
        if (res?.ok) this.published += size;
        else {
          this.errors += 1;
          await new Promise((r) => setTimeout(r, 200));
        }
        await res?.body?.cancel();
      }
    })();
  }

  /**
   * Events published, events the books stored since `start` (every event: the market's and the desk's too) and per
   * second, and how far behind the consumer was when the publishing stopped (published − stored; ≤ 0: caught up).
   */
  async stop(): Promise<{ published: number; stored: number; perSecond: number; behind: number }> {
    this.running = false;
    await this.loop;
    const stored = (await storedEvents(this.db)) - this.startStored;
    return {
      published: this.published,
      stored,
      perSecond: stored / ((performance.now() - this.startedAt) / 1000),
      behind: this.published - stored,
    };
  }
}
