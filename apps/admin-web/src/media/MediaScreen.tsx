import { Stack, Title } from '@mantine/core';
import { MediaLibrary } from './MediaLibrary.tsx';

export default function MediaScreen() {
  return (
    <Stack>
      <Title order={2}>Media</Title>
      <MediaLibrary />
    </Stack>
  );
}
