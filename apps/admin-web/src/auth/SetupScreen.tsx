import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CmsAccountSetupBody } from '@fanfare/protocol';
import { useApi, useSession, useSessionStore } from '../api/context.tsx';
import { zodResolver } from '../forms/zodResolver.ts';
import { AuthFrame } from './AuthFrame.tsx';

/**
 * First-admin set-up: a user signed in with a generated password (printed by `npm start`) gives
 * their own name, e-mail and password before anything else; the server refuses every other call
 * until then (403 AccountSetupRequired).
 */
export function SetupScreen() {
  const api = useApi();
  const store = useSessionStore();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/campaigns';
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: session?.user.name ?? '', email: session?.user.email ?? '', new_password: '', repeat: '' },
    validate: (values) => {
      const errors = zodResolver(CmsAccountSetupBody, ({ name, email, new_password }: typeof values) => ({ name, email, new_password }))(values);
      if (values.repeat !== values.new_password) errors.repeat = 'The passwords differ';
      return errors;
    },
  });

  const submit = form.onSubmit(async ({ name, email, new_password }) => {
    setError(null);
    try {
      store.setUser(await api.users.completeSetup({ name, email, new_password }));
      await navigate(from.startsWith('/setup') ? '/campaigns' : from, { replace: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });

  return (
    <AuthFrame title="Set up your account">
      <Text size="sm">
        You signed in with the password printed when Fanfare started. Choose your own name, e-mail and password: the printed one stops working.
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Your name" autoComplete="name" required {...form.getInputProps('name')} />
          <TextInput label="E-mail" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordInput label="New password" description="At least 12 characters, not the printed one" autoComplete="new-password" required {...form.getInputProps('new_password')} />
          <PasswordInput label="Repeat the new password" autoComplete="new-password" required {...form.getInputProps('repeat')} />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={form.submitting}>
            Save and continue
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
