// The command line of a benchmark or script: `--name` flags and `--name value` options.
const args = process.argv.slice(2);

/** Whether `--name` is on the command line. */
export const flag = (name: string): boolean => args.includes(`--${name}`);

/** The value after `--name`, if it is on the command line. */
export function option(name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}
