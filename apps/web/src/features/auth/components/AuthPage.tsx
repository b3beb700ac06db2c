import { Tabs } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { rememberTemplate } from '../../templates';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { PageLoader } from '../../../components/PageLoader';
import { useCurrentUser } from '../hooks/useCurrentUser';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

type AuthTab = 'login' | 'register';

export function AuthPage() {
  const { data: user, isPending } = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: AuthTab = searchParams.get('tab') === 'register' ? 'register' : 'login';
  // "Use this template" from the home page: kept until the user reaches the app signed in and verified.
  useState(() => rememberTemplate(searchParams.get('template')));

  if (isPending) return <PageLoader />;
  // A verified user's remembered template is opened by the dashboard.
  if (user) return <Navigate to={user.isVerified ? '/dashboard' : '/verify-prompt'} replace />;

  const selectTab = (value: string | null) =>
    setSearchParams(value === 'register' ? { tab: 'register' } : {}, { replace: true });

  return (
    <CardPageLayout>
      <Tabs value={tab} onChange={selectTab} keepMounted={false}>
        <Tabs.List grow mb="lg">
          <Tabs.Tab value="login">Login</Tabs.Tab>
          <Tabs.Tab value="register">Register</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="login">
          <LoginForm />
        </Tabs.Panel>
        <Tabs.Panel value="register">
          <RegisterForm />
        </Tabs.Panel>
      </Tabs>
    </CardPageLayout>
  );
}
