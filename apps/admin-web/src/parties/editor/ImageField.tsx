import { useState, type ReactNode } from 'react';
import { Button, Group, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { MediaLibrary } from '../../media/MediaLibrary.tsx';

/**
 * The media library hands out the file's address as the CMS serves it. The party app runs on its
 * own origin, so a relative address would point at the wrong server: make it absolute (an http(s)
 * URL, which the party schemas' `WebUrl` accepts).
 */
export function absoluteMediaUrl(url: string, base: string = window.location.href): string {
  return new URL(url, base).href;
}

/**
 * An image URL field with a button that opens the media library (upload or pick), as the campaign
 * editor's image fields do. The text field stays, for pasting an address from elsewhere.
 */
export function ImageField(props: {
  label: string;
  /** How the buttons and the dialog name the image (default: the label in lower case). */
  name?: string;
  description?: string;
  placeholder?: string;
  /** What `form.getInputProps(path)` gives: value, onChange (takes the new string), error, focus and blur. */
  value?: string | null;
  onChange: (url: string) => void;
  error?: ReactNode;
  onFocus?: () => void;
  onBlur?: () => void;
  w?: number;
}) {
  const [open, setOpen] = useState(false);
  const { label, onChange } = props;
  const value = props.value ?? '';
  const name = props.name ?? label.toLowerCase();
  return (
    <Stack gap={4} w={props.w}>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          label={label}
          description={props.description}
          placeholder={props.placeholder ?? 'https://… or /path'}
          value={value}
          error={props.error}
          onChange={(e) => onChange(e.currentTarget.value)}
          onFocus={props.onFocus}
          onBlur={props.onBlur}
          style={{ flex: 1, minWidth: 0 }}
        />
        {value && <Image src={value} alt="" w={36} h={36} radius="sm" fit="contain" style={{ flex: 'none' }} />}
      </Group>
      <Group gap="xs">
        <Button size="compact-xs" variant="light" onClick={() => setOpen(true)} aria-label={`Choose the ${name} from the media library`}>
          Media library…
        </Button>
        {value && (
          <Button size="compact-xs" variant="subtle" color="gray" onClick={() => onChange('')} aria-label={`Clear the ${name}`}>
            Clear
          </Button>
        )}
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Pick the ${name}`} size="xl">
        {open && (
          <Stack>
            <Text size="sm" c="dimmed">
              Upload an image or pick one; the field takes its address.
            </Text>
            <MediaLibrary
              onPick={(url) => {
                onChange(absoluteMediaUrl(url));
                setOpen(false);
              }}
            />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
