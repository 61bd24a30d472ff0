import type { z } from 'zod';

/**
 * A Mantine form `validate` function from a protocol zod schema: the browser refuses a field for
 * the same reason (and with the same words) as the server would. Errors are keyed by field path
 * (`tag_manager.artist`, `newsletters.0.id`), as Mantine expects.
 */
export function zodResolver<T>(schema: z.ZodType<unknown>, toWire: (values: T) => unknown = (v) => v) {
  return (values: T): Record<string, string> => {
    const parsed = schema.safeParse(toWire(values));
    if (parsed.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      errors[key] ??= issue.message;
    }
    return errors;
  };
}
