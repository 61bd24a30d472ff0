import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useDropzone } from 'react-dropzone';
import { Alert, Anchor, Badge, Button, Group, NumberInput, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TokenGateCodesResponse } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { useCampaign } from '../campaigns/queries.ts';
import { uploadWithProgress } from '../media/upload.ts';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Pager } from '../ui/Pager.tsx';
import { Empty, Failed, Loading } from '../ui/States.tsx';

const PAGE_SIZE = 50;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A campaign's token gate: upload access codes for its product (CSV, with progress), their uses, and the issued keys to revoke. */
export default function TokenGateScreen() {
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  if (campaign.isPending) return <Loading />;
  if (campaign.isError) return <Failed error={campaign.error} retry={() => void campaign.refetch()} />;
  const product = campaign.data.token_gate.product_id;
  return (
    <Stack>
      <Anchor component={Link} to="/campaigns" size="sm">
        ← Campaigns
      </Anchor>
      <Title order={2}>Token gate: {campaign.data.name}</Title>
      <Group gap="xs">
        <Badge color={campaign.data.token_gate.enabled ? 'teal.9' : 'gray.7'} variant="filled">
          {campaign.data.token_gate.enabled ? 'gate enabled' : 'gate disabled'}
        </Badge>
        <Text size="sm">Product: {product ?? '—'}</Text>
      </Group>
      {product ? (
        <>
          <CodesUpload productId={product} />
          <Codes productId={product} />
        </>
      ) : (
        <Alert color="yellow" title="No product">
          Set the token gate&apos;s product id in the campaign editor first: access codes are uploaded per product.
        </Alert>
      )}
      <Keys campaignId={id} />
    </Stack>
  );
}

function CodesUpload({ productId }: { productId: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const [maxUses, setMaxUses] = useState<number>(1);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<TokenGateCodesResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onDrop = async (files: File[]) => {
    const file = files[0];
    if (!file) return;
    setError(null);
    setResult(null);
    setProgress(0);
    try {
      const body = await uploadWithProgress({ url: api.tokenGate.uploadUrl(productId, maxUses), token: api.token(), body: await file.text(), contentType: 'text/csv', onProgress: setProgress });
      setResult(TokenGateCodesResponse.parse(body));
      void qc.invalidateQueries({ queryKey: ['codes', productId] });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
    }
  };
  const { getRootProps, getInputProps, open } = useDropzone({ onDrop: (f) => void onDrop(f), accept: { 'text/csv': ['.csv'], 'text/plain': ['.txt'] }, multiple: false, noClick: true });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Upload access codes
        </Title>
        <Group align="flex-end">
          <NumberInput label="Uses per code (when a line names none)" min={1} max={1_000_000} value={maxUses} onChange={(v) => setMaxUses(Number(v) || 1)} w={260} />
          <Button onClick={open}>Choose a CSV file</Button>
        </Group>
        <Paper {...getRootProps()} withBorder p="sm" style={{ borderStyle: 'dashed', textAlign: 'center' }} aria-label="Drop a CSV file of codes here">
          <input {...getInputProps()} data-testid="codes-input" />
          <Text size="sm" c="dimmed">
            Or drop a CSV here: one code per line, optionally <code>code,max_uses</code>.
          </Text>
        </Paper>
        {progress !== null && <Progress value={progress * 100} aria-label="Upload of the codes" />}
        {result && (
          <Alert color="teal" role="status">
            {result.added} new codes, {result.updated} updated for {result.product_id}.
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function Codes({ productId }: { productId: string }) {
  const api = useApi();
  const [page, setPage] = useState(1);
  const codes = useQuery({ queryKey: ['codes', productId, page], queryFn: () => api.tokenGate.codes(productId, page), placeholderData: keepPreviousData });
  if (codes.isPending) return <Loading />;
  if (codes.isError) return <Failed error={codes.error} retry={() => void codes.refetch()} />;
  if (codes.data.total === 0) return <Empty title="No codes for this product yet">Upload a CSV of codes above.</Empty>;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Codes and their uses ({codes.data.total_uses} uses in total)
      </Title>
      <Table striped aria-label="Access codes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Code id</Table.Th>
            <Table.Th>Uses</Table.Th>
            <Table.Th>Added</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {codes.data.items.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <code>{c.id}</code>
              </Table.Td>
              <Table.Td>
                {c.uses} of {c.max_uses}
              </Table.Td>
              <Table.Td>{when(c.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Pager total={codes.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} noun="codes" />
    </Stack>
  );
}

function Keys({ campaignId }: { campaignId: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ['keys', campaignId], queryFn: () => api.tokenGate.keys(campaignId) });
  const revoke = useMutation({
    mutationFn: (keyId: string) => api.tokenGate.revoke(campaignId, keyId),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['keys', campaignId] });
      notifyDone('Key revoked: its fan is asked for a code again');
    },
    onError: (e) => notifyError(e, 'Could not revoke'),
  });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Issued access keys
      </Title>
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <Failed error={keys.error} retry={() => void keys.refetch()} />
      ) : keys.data.items.length === 0 ? (
        <Empty title="No keys issued yet">A key is issued when a fan enters a valid code on the gate page.</Empty>
      ) : (
        <Table striped aria-label="Access keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Issued</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.data.items.map((k) => (
              <Table.Tr key={k.id}>
                <Table.Td>{when(k.created_at)}</Table.Td>
                <Table.Td>{when(k.expires_at)}</Table.Td>
                <Table.Td>{k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'valid'}</Table.Td>
                <Table.Td>
                  {!k.revoked_at && (
                    <Button size="xs" color="red" variant="light" onClick={() => revoke.mutate(k.id)} aria-label={`Revoke the key issued ${when(k.created_at)}`}>
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
