/** A mistake in how a command was called: its message (usually with the usage) and exit code 2. */
export class UsageError extends Error {}

/**
 * Runs a command-line entry: its result is the exit code; a UsageError prints its message and exits
 * 2; anything else prints the error and exits 1.
 */
export function runCommandLine(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof UsageError ? error.message : error);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}
