import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CmsPasswordResetBody } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { zodResolver } from '../forms/zodResolver.ts';
import { AuthFrame } from './AuthFrame.tsx';

/** Asks for a reset e-mail; the answer is the same for unknown addresses (the server never tells). */
export function ForgotPasswordScreen() {
  const api = useApi();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '' }, validate: zodResolver(CmsPasswordResetBody) });
  const submit = form.onSubmit(async ({ email }) => {
    setError(null);
    try {
      await api.users.requestReset(email);
      setSent(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });
  return (
    <AuthFrame title="Reset your password">
      {sent ? (
        <Alert color="teal" role="status">
          If this address has an account, an e-mail with a link to set a new password is on its way. The link works once and expires in an hour.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="E-mail" type="email" autoComplete="username" required {...form.getInputProps('email')} />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={form.submitting}>
              Send the link
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
