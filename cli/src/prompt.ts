import { createInterface, type Interface } from "node:readline";
import { Writable } from "node:stream";
import { CliError, EXIT } from "./errors";

/**
 * Questions on stderr, answers from stdin: typed on a terminal (a secret without echo), or read line by line
 * from a pipe (`printf 'key\nsecret\n123456\n' | brokerdesk login`). One reader for the whole command, so lines
 * piped before a question is asked are kept for it.
 */

type In = NodeJS.ReadableStream & { isTTY?: boolean };
type Err = NodeJS.WritableStream;

export class Prompter {
  private rl?: Interface;
  private lines?: AsyncIterator<string>;
  private muted = false;

  constructor(
    private readonly stdin: In,
    private readonly stderr: Err,
  ) {}

  get interactive(): boolean {
    return !!this.stdin.isTTY;
  }

  private reader(): AsyncIterator<string> {
    if (!this.lines) {
      const output = new Writable({
        write: (chunk, _enc, done) => {
          if (!this.muted) this.stderr.write(chunk);
          done();
        },
      });
      this.rl = createInterface({ input: this.stdin, output, terminal: this.interactive });
      this.lines = this.rl[Symbol.asyncIterator]();
    }
    return this.lines;
  }

  async ask(question: string, options: { secret?: boolean } = {}): Promise<string> {
    const lines = this.reader();
    if (this.interactive) {
      this.rl!.setPrompt(question);
      this.rl!.prompt();
      this.muted = !!options.secret;
    } else this.stderr.write(question);
    const next = await lines.next();
    if (this.muted) this.stderr.write("\n");
    this.muted = false;
    if (!this.interactive) this.stderr.write("\n");
    if (next.done) throw new CliError("NO_INPUT", `No answer to "${question.trim()}" (stdin ended).`, EXIT.usage);
    return next.value.trim();
  }

  async confirm(question: string): Promise<boolean> {
    return /^y(es)?$/i.test(await this.ask(`${question} [y/N] `));
  }

  close(): void {
    this.rl?.close();
  }
}
