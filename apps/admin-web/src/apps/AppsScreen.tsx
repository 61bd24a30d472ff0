import { Title } from '@mantine/core';

export default function AppsScreen() {
  return <Title order={2}>TODO</Title>;
}
