/**
 * Counts of an abuse run: sent, refused in the right shape, 5xx (must be 0), wrongly accepted (must be 0: a 2xx to
 * something that has to be refused), and refusals not in the documented shape.
 */
export interface Answer {
  status: number;
  body: unknown;
}

export class Tally {
  sent = 0;
  refusedRight = 0;
  accepted = 0;
  fivexx = 0;
  wronglyAccepted = 0;
  badShape = 0;
  readonly samples: string[] = [];

  constructor(
    readonly name: string,
    readonly shape: (body: unknown) => boolean = upstreamShape,
  ) {}

  record(r: Answer, mustRefuse: boolean): void {
    this.sent += 1;
    if (r.status >= 500) {
      this.fivexx += 1;
      this.sample(`5xx ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    } else if (r.status >= 400) {
      if (this.shape(r.body)) this.refusedRight += 1;
      else {
        this.badShape += 1;
        this.sample(`shape ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    } else if (mustRefuse) {
      this.wronglyAccepted += 1;
      this.sample(`accepted ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    } else this.accepted += 1;
  }

  private sample(s: string) {
    if (this.samples.length < 5) this.samples.push(s);
  }

  print(): void {
    console.log(
      `abuse (${this.name}): sent ${this.sent}, refused with the right error ${this.refusedRight}, accepted ${this.accepted}, ` +
        `5xx ${this.fivexx}, wrongly accepted ${this.wronglyAccepted}, refusals in another shape ${this.badShape}` +
        (this.samples.length ? `\n  ${this.samples.join("\n  ")}` : ""),
    );
  }
}

/** The upstream's error shape, which the sandbox answers with: {error_code, message}, both strings. */
export function upstreamShape(body: unknown): boolean {
  const b = body as { error_code?: unknown; message?: unknown } | null;
  return !!b && typeof b.error_code === "string" && typeof b.message === "string";
}

/** The desk's route error shape: {error, message}. */
export function deskShape(body: unknown): boolean {
  const b = body as { error?: unknown; message?: unknown } | null;
  return !!b && typeof b.error === "string" && typeof b.message === "string";
}
