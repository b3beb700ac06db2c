import type { PageForm } from '../hooks/usePageForm';

type ImageFieldName = 'imageUrl' | 'backgroundImage' | 'metaImageUrl' | 'faviconUrl';

/** Binds an ImageField to one of the form's image URLs (validated when it loses focus and on save). */
export function imageFieldProps(form: PageForm, field: ImageFieldName) {
  const { error, onBlur } = form.getInputProps(field);
  return {
    value: form.values[field],
    onChange: (url: string) => {
      form.setFieldValue(field, url);
      // An uploaded or removed image is final: check it now rather than on a blur that never comes.
      if (url === '' || url.startsWith('/uploads/') || form.errors[field]) form.validateField(field);
    },
    onBlur,
    error,
  };
}
