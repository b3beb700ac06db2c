import { schemaResolver, useForm } from '@mantine/form';
import type { z } from 'zod';

/**
 * A Mantine form validated by one of the shared zod schemas of `@plink/contracts` (ARCHITECTURE #10).
 * Errors appear under the fields on submit; the submit handler receives the schema's parsed output.
 * Uncontrolled (Mantine's recommended mode): typing does not re-render the form, so inputs need
 * `key={form.key(path)}` beside `{...form.getInputProps(path)}`.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: S,
  initialValues: z.input<S>,
) {
  return useForm<z.input<S>, z.output<S>>({
    mode: 'uncontrolled',
    initialValues,
    validate: schemaResolver(schema, { sync: true }),
    // Only called after validation passed, so parse cannot throw here.
    transformValues: (values) => schema.parse(values),
  });
}
