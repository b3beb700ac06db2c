import { PasswordInput, TextInput, type MantineSpacing, type PasswordInputProps } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useState, type MouseEvent } from 'react';

/** What a field is for: its input type, the browser's autofill hint, and whether it is a secret. */
const KINDS = {
  username: { autoComplete: 'username' },
  email: { type: 'email', autoComplete: 'email' },
  'current-password': { autoComplete: 'current-password', secret: true },
  'new-password': { autoComplete: 'new-password', secret: true },
} as const satisfies Record<string, { type?: 'email'; autoComplete: string; secret?: true }>;

export type AuthFieldKind = keyof typeof KINDS;

/** The part of a Mantine form (useSchemaForm's) a field binds to: its key and its input props. */
interface FieldSource<Name extends string> {
  key(path: Name): string;
  getInputProps(path: Name): GetInputPropsReturnType;
}

interface AuthFieldProps<Name extends string> {
  form: FieldSource<Name>;
  name: Name;
  kind: AuthFieldKind;
  label: string;
  /** Space below the field, where the form is not a Stack. */
  mb?: MantineSpacing;
}

/**
 * A password field whose show/hide button is a Tab stop (Mantine leaves it out by default) named for what
 * pressing it does. The name carries the state, so Mantine's aria-pressed goes: "Hide password, pressed"
 * would read as the opposite.
 */
/**
 * Mantine's toggle acts on mousedown, touchend and keydown only, so a bare click (what a screen reader sends when
 * its user activates the button, and `element.click()`) did nothing. Such a click has `detail` 0; a pointer's
 * click (detail 1 or more) follows a mousedown that already toggled, and a keyboard's Enter or Space is taken on
 * keydown (its default, the click, prevented).
 */
function PasswordField(props: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...props}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{
        'aria-label': visible ? 'Hide password' : 'Show password',
        'aria-pressed': undefined,
        onClick: (event: MouseEvent<HTMLButtonElement>) => {
          if (event.detail === 0) setVisible((shown) => !shown);
        },
      }}
    />
  );
}

/**
 * One field of the account forms (log in, register, forgot and reset password, change password): its label,
 * the schema's message under it (from the form), the right autofill hint and, for passwords, the show/hide
 * toggle. Bound to a `useSchemaForm` form by the field's name.
 */
export function AuthField<Name extends string>({ form, name, kind, label, mb }: AuthFieldProps<Name>) {
  const spec: { type?: 'email'; autoComplete: string; secret?: true } = KINDS[kind];
  const common = { label, autoComplete: spec.autoComplete, mb, ...form.getInputProps(name) };
  return spec.secret ? <PasswordField key={form.key(name)} {...common} /> : <TextInput key={form.key(name)} type={spec.type} {...common} />;
}
