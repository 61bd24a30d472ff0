import { Group, Pagination, Text } from '@mantine/core';

/** Page controls of a server-paged list, with the total announced. */
export function Pager({ total, page, pageSize, onChange, noun }: { total: number; page: number; pageSize: number; onChange: (page: number) => void; noun: string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {total.toLocaleString('en')} {noun} · page {page} of {pages}
      </Text>
      <Pagination total={pages} value={page} onChange={onChange} size="sm" getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
    </Group>
  );
}
