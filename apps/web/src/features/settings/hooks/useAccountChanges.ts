import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IdentityMessages, type UserDto } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { currentUserQuery } from '../../auth';
import { cancelEmailChange, changeEmail, changeUsername, confirmEmailChange } from '../api/settings.api';

/** The server's messages that belong under a field of the account forms (the rest go to a toast). */
export const FIELD_OF_MESSAGE: Record<string, 'newEmail' | 'currentPassword' | 'username'> = {
  [IdentityMessages.currentPasswordWrong]: 'currentPassword',
  [IdentityMessages.emailExists]: 'newEmail',
  [IdentityMessages.sameEmail]: 'newEmail',
  [IdentityMessages.invalidEmailAddress]: 'newEmail',
  [IdentityMessages.usernameExists]: 'username',
  [IdentityMessages.usernameLength]: 'username',
  [IdentityMessages.usernameCharacters]: 'username',
};

/** The signed-in user as an account call answered it: every screen shows it at once. */
function useKeepUser() {
  const queryClient = useQueryClient();
  return (user: UserDto) => queryClient.setQueryData(currentUserQuery.queryKey, user);
}

function failed(title: string) {
  return (error: unknown) => {
    if (FIELD_OF_MESSAGE[errorText(error, '')]) return;
    toast({ title, description: errorText(error, title), variant: 'destructive' });
  };
}

export function useChangeEmail() {
  const keepUser = useKeepUser();
  return useMutation({
    mutationFn: changeEmail,
    onSuccess: (user) => {
      keepUser(user);
      toast({ title: 'Check your new inbox', description: IdentityMessages.emailChangeSent, variant: 'success' });
    },
    onError: failed('Email change failed'),
  });
}

export function useCancelEmailChange() {
  const keepUser = useKeepUser();
  return useMutation({
    mutationFn: cancelEmailChange,
    onSuccess: (user) => {
      keepUser(user);
      toast({ title: 'Email change cancelled', description: IdentityMessages.emailChangeCancelled, variant: 'success' });
    },
    onError: failed('Could not cancel the email change'),
  });
}

export function useChangeUsername() {
  const keepUser = useKeepUser();
  return useMutation({
    mutationFn: changeUsername,
    onSuccess: (user) => {
      keepUser(user);
      toast({ title: 'Username changed', description: IdentityMessages.usernameChanged, variant: 'success' });
    },
    onError: failed('Username change failed'),
  });
}

/** Confirms the link's token, then refreshes the signed-in user, if any (the address shown everywhere). */
export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
