// The command line of a benchmark or script: `--name` flags and `--name value` options.
const args = process.argv.slice(2);

/** Whether `--name` is on the command line. */
export const flag = (name: string): boolean => args.includes(`--${name}`);

/** The value after `--name`, if it is on the command line. */
export function option(name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}

/** Every value given after `--name`, in order, for an option that may be repeated. */
export function options(name: string): string[] {
  return args.flatMap((a, i) => (a === `--${name}` && i + 1 < args.length ? [args[i + 1]!] : []));
}
