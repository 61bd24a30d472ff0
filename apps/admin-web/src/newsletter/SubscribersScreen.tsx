import { Title } from '@mantine/core';

export default function SubscribersScreen() {
  return <Title order={2}>TODO</Title>;
}
