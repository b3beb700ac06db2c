import { type UseFormReturnType, schemaResolver, useForm } from '@mantine/form';
import { createPageSchema } from '@plink/contracts';
import { useRef } from 'react';
import type { PageFormValues } from '../model/page-form';

/**
 * The editor's form, validated by the shared page schema (its messages are the server's). The slug
 * is checked as it is typed; every other field when it loses focus, again on each change
 * while it shows an error (so the message goes as soon as the value is right), and on save.
 * Controlled: the live preview redraws from every change.
 */
export function usePageForm(initialValues: PageFormValues) {
  // Holds the form for its own change callback (the form object is created by the call that takes it).
  const formRef = useRef<Pick<UseFormReturnType<PageFormValues>, 'errors' | 'validateField'> | null>(null);
  const form = useForm<PageFormValues>({
    mode: 'controlled',
    initialValues,
    validate: schemaResolver(createPageSchema, { sync: true }),
    validateInputOnChange: ['slug'],
    validateInputOnBlur: true,
    onValuesChange: (values, previous) => {
      const current = formRef.current;
      if (!current) return;
      for (const field of Object.keys(values) as (keyof PageFormValues)[]) {
        if (field !== 'slug' && values[field] !== previous[field] && current.errors[field]) current.validateField(field);
      }
    },
  });
  formRef.current = form;
  return form;
}

export type PageForm = ReturnType<typeof usePageForm>;
