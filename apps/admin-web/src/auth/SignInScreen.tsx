import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CmsLoginBody } from '@fanfare/protocol';
import { useApi, useSessionStore } from '../api/context.tsx';
import { zodResolver } from '../forms/zodResolver.ts';
import { AuthFrame } from './AuthFrame.tsx';

export function SignInScreen() {
  const api = useApi();
  const store = useSessionStore();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/campaigns';
  const [error, setError] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '', password: '' }, validate: zodResolver(CmsLoginBody) });

  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      store.signIn(await api.users.login(values.email, values.password));
      await navigate(from === '/sign-in' ? '/campaigns' : from, { replace: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });

  return (
    <AuthFrame title="Sign in to the back office">
      {store.wasExpired() && (
        <Alert color="yellow" title="Your session has ended" role="status" styles={{ title: { color: 'var(--mantine-color-black)' } }}>
          Sign in again to continue where you were.
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="E-mail" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={form.submitting}>
            Sign in
          </Button>
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot your password?
          </Anchor>
          <Text size="xs" c="dimmed">
            First time here? <code>npm start</code> prints the first admin&apos;s e-mail and password (or takes them from ADMIN_EMAIL and ADMIN_PASSWORD). Sign in
            with them: you then choose your own name, e-mail and password.
          </Text>
        </Stack>
      </form>
    </AuthFrame>
  );
}
