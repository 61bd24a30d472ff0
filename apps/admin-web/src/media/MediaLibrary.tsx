import { useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { ActionIcon, Anchor, Breadcrumbs, Button, Card, Group, Image, Modal, Paper, Progress, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { MEDIA_ALT_MAX_LENGTH, MEDIA_SEARCH_LIMIT, type CmsUpload } from '@fanfare/protocol';
import { useApi, useCan } from '../api/context.tsx';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Empty, Failed, Loading } from '../ui/States.tsx';
import { uploadImage } from './upload.ts';

const ACCEPT = { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/gif': ['.gif'], 'image/webp': ['.webp'] };

interface Pending {
  key: string;
  name: string;
  progress: number;
  error: string | null;
}

const parentOf = (path: string) => {
  const parts = path.split('/').filter(Boolean);
  parts.pop();
  return `/${parts.join('/')}`;
};

/**
 * The media library: folders, drag-and-drop upload with a progress bar per file, previews with
 * their size in pixels, search across all folders, and (with `onPick`) picking a file for a field.
 */
export function MediaLibrary({ onPick, target }: { onPick?: (url: string) => void; target?: { width: number; height: number } }) {
  const api = useApi();
  const qc = useQueryClient();
  const canWrite = useCan('uploads.write');
  const [folder, setFolder] = useState('/');
  const [search, setSearch] = useState('');
  const [pending, setPending] = useState<Pending[]>([]);
  const [newFolder, setNewFolder] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const listing = useQuery({ queryKey: ['uploads', folder], queryFn: () => api.uploads.folder(folder) });
  // The search looks in every folder, on the server (one request once typing pauses).
  const [needle] = useDebouncedValue(search.trim(), 250);
  const found = useQuery({ queryKey: ['uploads', 'search', needle], queryFn: () => api.uploads.search(needle), enabled: needle !== '' });
  const refresh = () => void qc.invalidateQueries({ queryKey: ['uploads'] });

  const onDrop = (files: File[]) => {
    for (const file of files) {
      const key = `${file.name}-${Math.random().toString(36).slice(2)}`;
      setPending((p) => [...p, { key, name: file.name, progress: 0, error: null }]);
      const update = (patch: Partial<Pending>) => setPending((p) => p.map((x) => (x.key === key ? { ...x, ...patch } : x)));
      uploadImage(api.uploads.uploadUrl(), api.token(), file, folder, (progress) => update({ progress }))
        .then(() => {
          setPending((p) => p.filter((x) => x.key !== key));
          refresh();
        })
        .catch((e: unknown) => update({ error: e instanceof Error ? e.message : String(e) }));
    }
  };
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({ onDrop, accept: ACCEPT, noClick: true, disabled: !canWrite });

  const createFolder = useMutation({
    mutationFn: (name: string) => api.uploads.createFolder(`${folder === '/' ? '' : folder}/${name}`),
    onSuccess: () => {
      setNewFolder(null);
      refresh();
    },
    onError: (e) => notifyError(e, 'Could not create the folder'),
  });
  const deleteFolder = useMutation({ mutationFn: (path: string) => api.uploads.deleteFolder(path), onSuccess: refresh, onError: (e) => notifyError(e, 'Could not delete the folder') });
  const moveFolder = useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) => api.uploads.moveFolder(from, to),
    onSuccess: () => {
      setRenaming(null);
      refresh();
      notifyDone('Folder renamed');
    },
    onError: (e) => notifyError(e, 'Could not rename the folder'),
  });
  const removeFile = useMutation({ mutationFn: (id: string) => api.uploads.remove(id), onSuccess: refresh, onError: (e) => notifyError(e, 'Could not delete the file') });

  const crumbs = folder.split('/').filter(Boolean);
  const searching = needle !== '';
  const shown = searching ? found : listing;
  const files = (searching ? found.data?.items : listing.data?.items) ?? [];
  const folders = searching ? [] : (listing.data?.folders ?? []);
  const openFolder = (path: string) => {
    setSearch('');
    setFolder(path);
  };

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Breadcrumbs aria-label="Folder">
          <Anchor component="button" type="button" onClick={() => setFolder('/')}>
            All media
          </Anchor>
          {crumbs.map((c, i) => (
            <Anchor key={c + i} component="button" type="button" onClick={() => setFolder(`/${crumbs.slice(0, i + 1).join('/')}`)}>
              {c}
            </Anchor>
          ))}
        </Breadcrumbs>
        <Group gap="xs">
          <TextInput
            size="xs"
            type="search"
            aria-label="Search all media"
            placeholder="Search all folders"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            maxLength={200}
          />
          {canWrite && (
            <>
              <Button size="xs" variant="default" onClick={() => setNewFolder('')}>
                New folder
              </Button>
              <Button size="xs" onClick={open}>
                Upload images
              </Button>
            </>
          )}
        </Group>
      </Group>

      {canWrite && (
        <Paper
          {...getRootProps()}
          withBorder
          p="md"
          style={{ borderStyle: 'dashed', background: isDragActive ? 'var(--mantine-color-orange-0)' : undefined, textAlign: 'center' }}
          aria-label="Drop images here to upload them"
        >
          <input {...getInputProps()} data-testid="upload-input" />
          <Text size="sm" c="dimmed">
            {isDragActive ? 'Drop to upload' : 'Drag PNG, JPEG, GIF or WebP images here, or use “Upload images”.'}
          </Text>
        </Paper>
      )}

      {pending.length > 0 && (
        <Stack gap="xs" aria-label="Uploads in progress">
          {pending.map((p) => (
            <Group key={p.key} gap="sm" wrap="nowrap">
              <Text size="sm" w={200} truncate>
                {p.name}
              </Text>
              <Progress value={p.progress * 100} flex={1} color={p.error ? 'red' : undefined} aria-label={`Upload of ${p.name}`} data-testid="upload-progress" />
              <Text size="xs" w={160} c={p.error ? 'red' : 'dimmed'}>
                {p.error ?? `${Math.round(p.progress * 100)} %`}
              </Text>
              {p.error && (
                <ActionIcon variant="subtle" aria-label={`Dismiss ${p.name}`} onClick={() => setPending((all) => all.filter((x) => x.key !== p.key))}>
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
        </Stack>
      )}

      {searching && found.isSuccess && files.length > 0 && (
        <Text size="sm" c="dimmed" role="status">
          {files.length === MEDIA_SEARCH_LIMIT ? `The first ${files.length}` : files.length} file{files.length === 1 ? '' : 's'} named like “{needle}” in all folders
        </Text>
      )}
      {shown.isPending ? (
        <Loading label={searching ? 'Searching all folders…' : 'Loading media…'} />
      ) : shown.isError ? (
        <Failed error={shown.error} retry={() => void shown.refetch()} />
      ) : folders.length === 0 && files.length === 0 ? (
        <Empty title={searching ? `No file named like “${needle}” in any folder` : 'This folder is empty'}>{canWrite && !searching ? 'Drop images above to upload them here.' : undefined}</Empty>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
          {folders.map((f) => (
            <Card key={f.path} withBorder padding="sm">
              <UnstyledButton onClick={() => setFolder(f.path)} aria-label={`Open folder ${f.name}`}>
                <Text size="xl" aria-hidden>
                  📁
                </Text>
                <Text size="sm" fw={600} truncate>
                  {f.name}
                </Text>
              </UnstyledButton>
              {canWrite && (
                <Group gap={4} mt="xs">
                  <Button size="compact-xs" variant="subtle" onClick={() => setRenaming(f.path)}>
                    Rename
                  </Button>
                  <Button size="compact-xs" variant="subtle" color="red" onClick={() => deleteFolder.mutate(f.path)}>
                    Delete
                  </Button>
                </Group>
              )}
            </Card>
          ))}
          {files.map((f) => (
            <FileCard
              key={f.id}
              file={f}
              target={target}
              onPick={onPick}
              onDelete={canWrite ? () => removeFile.mutate(f.id) : undefined}
              canWrite={canWrite}
              onOpenFolder={searching ? () => openFolder(f.folder) : undefined}
            />
          ))}
        </SimpleGrid>
      )}
      {folder !== '/' && !searching && (
        <Anchor component="button" type="button" size="sm" onClick={() => setFolder(parentOf(folder))}>
          ← Up one folder
        </Anchor>
      )}

      <NameModal title="New folder" opened={newFolder !== null} initial="" onClose={() => setNewFolder(null)} onSubmit={(name) => createFolder.mutate(name)} />
      <NameModal
        title="Rename folder"
        opened={renaming !== null}
        initial={renaming?.split('/').filter(Boolean).pop() ?? ''}
        onClose={() => setRenaming(null)}
        onSubmit={(name) => renaming && moveFolder.mutate({ from: renaming, to: `${parentOf(renaming) === '/' ? '' : parentOf(renaming)}/${name}` })}
      />
    </Stack>
  );
}

function NameModal({ title, opened, initial, onClose, onSubmit }: { title: string; opened: boolean; initial: string; onClose: () => void; onSubmit: (name: string) => void }) {
  const [value, setValue] = useState(initial);
  const valid = /^[\w-]{1,100}$/.test(value);
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onSubmit(value);
        }}
      >
        <Stack>
          <TextInput label="Name" data-autofocus value={value} onChange={(e) => setValue(e.currentTarget.value)} error={value && !valid ? 'Letters, digits, dashes and underscores' : undefined} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

interface FileCardProps {
  file: CmsUpload;
  target?: { width: number; height: number };
  onPick?: (url: string) => void;
  onDelete?: () => void;
  /** In search results: the file's folder, as a link that opens it. */
  onOpenFolder?: () => void;
  /** The alt text is editable (else shown). */
  canWrite?: boolean;
}

const bytesText = (n: number) => (n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(2)} MB`);

/** The item's alt text: saved when the field loses focus or on Enter, if it changed. */
function AltTextField({ file, canWrite }: { file: CmsUpload; canWrite: boolean }) {
  const api = useApi();
  const qc = useQueryClient();
  const [value, setValue] = useState(file.alt);
  const save = useMutation({
    mutationFn: (alt: string) => api.uploads.setAlt(file.id, alt),
    onSuccess: (saved) => {
      setValue(saved.alt);
      void qc.invalidateQueries({ queryKey: ['uploads'] });
      notifyDone(`Alt text of ${file.name} saved`);
    },
    onError: (e) => notifyError(e, 'Could not save the alt text'),
  });
  if (!canWrite) return file.alt ? <Text size="xs">Alt: {file.alt}</Text> : null;
  const commit = () => {
    if (value.trim() !== file.alt) save.mutate(value.trim());
  };
  return (
    <TextInput
      size="xs"
      mt={4}
      label="Alt text"
      description={file.alt ? undefined : 'What the image shows, for people who cannot see it'}
      value={value}
      maxLength={MEDIA_ALT_MAX_LENGTH}
      onChange={(e) => setValue(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
      disabled={save.isPending}
      aria-label={`Alt text of ${file.name}`}
    />
  );
}

function FileCard({ file, target, onPick, onDelete, onOpenFolder, canWrite = false }: FileCardProps) {
  // The size the server read at upload; older files are measured once shown.
  const [measured, setSize] = useState<{ w: number; h: number } | null>(null);
  const size = file.width && file.height ? { w: file.width, h: file.height } : measured;
  const tooSmall = target && size ? size.w < target.width || size.h < target.height : false;
  return (
    <Card withBorder padding="xs">
      <Card.Section>
        <Image src={file.file} alt={file.alt || file.name} h={110} fit="cover" onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })} />
      </Card.Section>
      <Text size="xs" fw={600} truncate mt={4} title={file.name}>
        {file.name}
      </Text>
      <Text size="xs" c={tooSmall ? 'red' : 'dimmed'}>
        {size ? `${size.w} × ${size.h} px` : '…'} · {bytesText(file.size)}
        {tooSmall ? ' · smaller than the field' : ''}
      </Text>
      <AltTextField file={file} canWrite={canWrite} />
      {onOpenFolder && (
        <Anchor component="button" type="button" size="xs" onClick={onOpenFolder} title={`Open the folder ${file.folder}`} truncate="end" maw="100%">
          in {file.folder === '/' ? 'All media' : file.folder}
        </Anchor>
      )}
      <Group gap={4} mt={4}>
        {onPick && (
          <Button size="compact-xs" onClick={() => onPick(file.file)} aria-label={`Pick ${file.name}`}>
            Pick
          </Button>
        )}
        <Button
          size="compact-xs"
          variant="default"
          aria-label={`Copy URL of ${file.name}`}
          onClick={() => {
            const url = new URL(file.file, window.location.href).href;
            navigator.clipboard.writeText(url).then(
              () => notifyDone(`URL copied: ${url}`),
              () => notifyError(`The browser did not allow copying. The address is ${url}`, 'Could not copy'),
            );
          }}
        >
          Copy URL
        </Button>
        {onDelete && (
          <Button size="compact-xs" variant="subtle" color="red" onClick={onDelete} aria-label={`Delete ${file.name}`}>
            Delete
          </Button>
        )}
      </Group>
    </Card>
  );
}
