import type { ZodType } from 'zod';

/**
 * A form's input checked with the shared schema the server applies, before it is sent: the
 * parsed value, or undefined once the schema's first problem (or `fallback`, where it names
 * none) is shown through `show`. Input that passes clears the problem shown before.
 */
export function checked<T>(
  schema: ZodType<T>,
  input: unknown,
  show: (problem: string | null) => void,
  fallback: string,
): T | undefined {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    show(parsed.error.issues[0]?.message ?? fallback);
    return undefined;
  }
  show(null);
  return parsed.data;
}

/**
 * checked, with the schema (and zod) loaded only when the form is sent, so that the page's
 * first load carries neither; a schema that cannot be loaded (offline) is said as such.
 */
export async function checkedOnSubmit<T>(
  load: () => Promise<ZodType<T>>,
  input: unknown,
  show: (problem: string | null) => void,
  fallback: string,
): Promise<T | undefined> {
  let schema: ZodType<T>;
  try {
    schema = await load();
  } catch {
    show('Could not reach the server. Check your connection and try again.');
    return undefined;
  }
  return checked(schema, input, show, fallback);
}
