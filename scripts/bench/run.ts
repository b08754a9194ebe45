/**
 * Runs a benchmark's or load script's `main` as the process: exits 0 when it ends, 1 when it throws (printed) or
 * answers `true` (its own check failed, as the soak's). Everything it started is stopped by its own `finally`.
 */
export function run(main: () => Promise<boolean | void>): void {
  main().then(
    (failed) => process.exit(failed ? 1 : 0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
