export const passwordResetKeys = {
  all: ['password-reset'] as const,
  token: (token: string) => [...passwordResetKeys.all, 'token', token] as const,
};
