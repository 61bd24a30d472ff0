import { useEffect } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { CmsApi } from '../api/cms.ts';
import { useApi, useSession, useSessionStore } from '../api/context.tsx';
import type { SessionStore } from './session.ts';
import { scheduleSessionExpiry } from './expiryTimer.ts';

const NOTICE_ID = 'session-expiry';

/** The warning's "stay signed in": the server extends the same session; the new end reschedules. */
async function staySignedIn(api: CmsApi, store: SessionStore) {
  try {
    store.signIn(await api.users.refreshSession());
    notifications.hide(NOTICE_ID);
  } catch {
    // A 401 already signed out (the session ended meanwhile); anything else: the warning stays.
  }
}

/**
 * Warns a couple of minutes before the session ends, with "Stay signed in"; at the end it signs
 * out, and the sign-in screen brings the editor back to the same page. Renders nothing.
 */
export function SessionExpiryWatcher() {
  const session = useSession();
  const store = useSessionStore();
  const api = useApi();
  const queryClient = useQueryClient();
  const expiresAt = session ? Date.parse(session.expiresAt) : null;

  useEffect(() => {
    if (expiresAt === null) return;
    const cancel = scheduleSessionExpiry({
      expiresAt,
      onWarn: (msLeft) =>
        notifications.show({
          id: NOTICE_ID,
          color: 'yellow',
          title: 'Your session ends soon',
          autoClose: false,
          withCloseButton: false,
          message: (
            <Group gap="xs" justify="space-between">
              <Text size="sm" c="var(--mantine-color-text)">You will be signed out in about {Math.max(1, Math.round(msLeft / 60_000))} minute(s).</Text>
              <Button size="xs" onClick={() => void staySignedIn(api, store)}>
                Stay signed in
              </Button>
            </Group>
          ),
        }),
      onExpire: () => {
        notifications.hide(NOTICE_ID);
        store.signOut(true);
        queryClient.clear();
      },
    });
    return () => {
      cancel();
      notifications.hide(NOTICE_ID);
    };
  }, [expiresAt, api, store, queryClient]);

  return null;
}
