/** A command line the CLI cannot run: said with what to type instead, with the usage (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}
