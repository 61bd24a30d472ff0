import { ActionIcon, Badge, Button, Group, Paper, ScrollArea, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { BlockedFan, ChatMessage } from '@fanfare/protocol';
import { notifyDone, notifyError } from '../../ui/notify.ts';
import { ConfirmButton } from './ConfirmButton.tsx';

interface Props {
  messages: ChatMessage[];
  skipped: number;
  blocked: BlockedFan[];
  onBlock: (userId: string) => Promise<unknown>;
  onUnblock: (userId: string) => Promise<unknown>;
  onDelete: (messageId: string) => Promise<unknown>;
}

const run = async (what: Promise<unknown>, done: string) => {
  try {
    await what;
    notifyDone(done);
  } catch (e) {
    notifyError(e, 'Moderation failed');
  }
};

/**
 * The live chat view: the newest messages the server sent with its figures (a sample when the
 * party is busy), each with block and delete; the blocked fans with unblock.
 */
export function LiveChat({ messages, skipped, blocked, onBlock, onUnblock, onDelete }: Props) {
  const blockedIds = new Set(blocked.map((b) => b.user_id));
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Live chat
        </Title>
        {skipped > 0 && (
          <Text size="xs" c="dimmed">
            Busy party: showing the newest messages ({skipped} more counted)
          </Text>
        )}
      </Group>
      <ScrollArea h={320} type="auto" aria-label="Live chat messages" tabIndex={0}>
        {messages.length === 0 ? (
          <Text c="dimmed" size="sm" p="sm" data-testid="chat-empty">
            No messages yet.
          </Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {[...messages].reverse().map((m) => (
              <Paper component="li" key={m.id} withBorder p="xs" data-testid="chat-message">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} span>
                      {m.sender?.display_name ?? 'System'}
                    </Text>{' '}
                    {m.sender && m.sender.role !== 'listener' && (
                      <Badge size="xs" variant="outline" color="indigo.9">
                        {m.sender.role}
                      </Badge>
                    )}
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {m.text ?? (m.sticker ? `[sticker ${m.sticker}]` : m.photo ? '[photo]' : m.video ? '[video]' : '')}
                    </Text>
                  </div>
                  <Group gap={4} wrap="nowrap">
                    {m.sender && m.sender.role === 'listener' && !blockedIds.has(m.sender.id) && (
                      <Tooltip label={`Block ${m.sender.display_name}`}>
                        <Button size="compact-xs" variant="outline" color="red.9" onClick={() => run(onBlock(m.sender!.id), `${m.sender!.display_name} blocked`)}>
                          Block
                        </Button>
                      </Tooltip>
                    )}
                    <ConfirmButton
                      size="compact-xs"
                      variant="outline"
                      color="red.9"
                      label="Delete"
                      aria-label={`Delete message by ${m.sender?.display_name ?? 'system'}`}
                      title="Delete this message?"
                      message={`“${(m.text ?? '').slice(0, 120)}” disappears for every fan.`}
                      confirmLabel="Delete message"
                      onConfirm={() => run(onDelete(m.id), 'Message deleted')}
                    />
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </ScrollArea>
      <Title order={4} size="h5">
        Blocked fans
      </Title>
      {blocked.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody is blocked.
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="blocked-list">
          {blocked.map((b) => (
            <Group component="li" key={b.user_id} justify="space-between">
              <Text size="sm">{b.display_name}</Text>
              <ActionIcon.Group>
                <Button size="compact-xs" variant="outline" onClick={() => run(onUnblock(b.user_id), `${b.display_name} may chat again`)}>
                  Unblock
                </Button>
              </ActionIcon.Group>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
