import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { ApiError } from '../api/cms.ts';

/** The loading state of a screen or panel: announced to screen readers. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text c="dimmed">{label}</Text>
      </Group>
    </Center>
  );
}

/** The empty state: says what is missing and offers the next step. */
export function Empty({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Stack align="center" py="xl" gap="xs" data-testid="empty-state">
      <Text fw={600}>{title}</Text>
      {children && (
        <Text c="dimmed" ta="center" size="sm">
          {children}
        </Text>
      )}
      {action}
    </Stack>
  );
}

/** The error state: the server's message and a retry (none for a 404: asking again will not find it). */
export function Failed({ error, retry }: { error: unknown; retry?: () => void }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <Alert color="red" title={notFound ? 'Not found' : 'Something went wrong'} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error instanceof Error ? error.message : String(error)}</Text>
        {notFound && (
          <Anchor component={Link} to="/" size="sm">
            Back to the start
          </Anchor>
        )}
        {retry && !notFound && (
          <Button size="xs" variant="light" color="red" onClick={retry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Loading, error or content of one query. */
export function QueryState<T>({ query, children }: { query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; refetch: () => unknown }; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading />;
  if (query.isError || query.data === undefined) return <Failed error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
