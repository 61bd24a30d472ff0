import { Title } from '@mantine/core';

export default function TokenGateScreen() {
  return <Title order={2}>TODO</Title>;
}
