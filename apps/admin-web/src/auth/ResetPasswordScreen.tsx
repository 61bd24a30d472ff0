import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CmsPasswordBody } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { zodResolver } from '../forms/zodResolver.ts';
import { AuthFrame } from './AuthFrame.tsx';

/** The page a reset or invitation e-mail opens (`#/reset-password?token=`). */
export function ResetPasswordScreen() {
  const api = useApi();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { new_password: '' },
    validate: zodResolver(CmsPasswordBody, (v: { new_password: string }) => ({ ...v, token: token || 'x' })),
  });
  const submit = form.onSubmit(async ({ new_password }) => {
    setError(null);
    try {
      await api.users.setPassword(token, new_password);
      setDone(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });
  return (
    <AuthFrame title="Set your password">
      {!token && (
        <Alert color="red" role="alert">
          This link has no token. Open the link from the e-mail again, or ask for a new one.
        </Alert>
      )}
      {done ? (
        <Alert color="teal" role="status">
          Password saved. You can sign in now.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <PasswordInput label="New password" description="At least 12 characters" autoComplete="new-password" required {...form.getInputProps('new_password')} />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={form.submitting} disabled={!token}>
              Save password
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/sign-in" size="sm">
        Back to sign in
      </Anchor>
    </AuthFrame>
  );
}
