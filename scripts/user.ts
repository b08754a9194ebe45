// npm run user -- create --email E --role R [--name N]
// Creates a staff user in the configured database. The password is asked for (hidden) or read from stdin.
import readline from "node:readline";
import { parseArgs } from "node:util";
import { createStaffSchema } from "@/lib/schemas/staff";
import { getDb } from "@/server/db";
import { exitIfEmbeddedDbInUse } from "@/server/db/embedded-lock";
import { createStaff } from "@/server/auth/staff";

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0];
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const ask = (q: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(q);
      const mute = rl as unknown as { _writeToOutput: (s: string) => void };
      mute._writeToOutput = () => undefined;
      rl.question("", (answer) => {
        process.stdout.write("\n");
        resolve(answer);
      });
    });
  const first = await ask("Password: ");
  const second = await ask("Again: ");
  rl.close();
  if (first !== second) throw new Error("The two passwords differ.");
  return first;
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: "string" }, role: { type: "string" }, name: { type: "string" } },
  });
  if (positionals[0] !== "create") {
    console.error("Usage: npm run user -- create --email E --role admin|operations|support|compliance [--name N]");
    process.exit(2);
  }
  exitIfEmbeddedDbInUse();
  const password = await readPassword();
  const parsed = createStaffSchema.safeParse({ email: values.email, role: values.role, name: values.name ?? values.email, password });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`${issue.path.join(".")}: ${issue.message}`);
    process.exit(2);
  }
  const db = await getDb();
  const user = await createStaff(db, parsed.data);
  console.log(`Created ${user.email} (${user.role}).`);
  await db.engine.close();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
