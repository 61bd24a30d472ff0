import { Stack, Text, Title } from '@mantine/core';
import { LedgerView } from './LedgerView.tsx';

/** The Subscribers section: every campaign's subscribers and consents, narrowed by campaign at will. */
export default function AllSubscribersScreen() {
  return (
    <Stack>
      <Title order={2}>Subscribers</Title>
      <Text size="sm" c="dimmed">
        Newsletter signups and the consents behind them, from every campaign page.
      </Text>
      <LedgerView campaign={null} />
    </Stack>
  );
}
