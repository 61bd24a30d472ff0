import { Title } from '@mantine/core';

export default function PeopleScreen() {
  return <Title order={2}>TODO</Title>;
}
