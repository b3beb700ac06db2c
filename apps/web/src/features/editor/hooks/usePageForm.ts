import { schemaResolver, useForm } from '@mantine/form';
import { createPageSchema } from '@plink/contracts';
import type { PageFormValues } from '../model/page-form';

/**
 * The editor's form, validated by the shared page schema (its messages are the server's). The slug
 * is checked as it is typed (SPEC §5), the other fields when they lose focus and on save.
 * Controlled: the live preview redraws from every change.
 */
export function usePageForm(initialValues: PageFormValues) {
  return useForm<PageFormValues>({
    mode: 'controlled',
    initialValues,
    validate: schemaResolver(createPageSchema, { sync: true }),
    validateInputOnChange: ['slug'],
    validateInputOnBlur: true,
  });
}

export type PageForm = ReturnType<typeof usePageForm>;
