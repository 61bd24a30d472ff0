import { Link, useParams } from 'react-router';
import { Anchor, Stack, Title } from '@mantine/core';
import { useCampaign } from '../campaigns/queries.ts';
import { Failed, Loading } from '../ui/States.tsx';
import { LedgerView } from './LedgerView.tsx';

/** One campaign's subscribers and consent ledger, on a screen of its own (from the campaigns list). */
export default function SubscribersScreen() {
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  return (
    <Stack>
      <Anchor component={Link} to="/campaigns" size="sm">
        ← Campaigns
      </Anchor>
      <Title order={2}>Subscribers and consents{campaign.data ? `: ${campaign.data.name}` : ''}</Title>
      {campaign.isPending ? <Loading /> : campaign.isError ? <Failed error={campaign.error} retry={() => void campaign.refetch()} /> : <LedgerView campaign={campaign.data} />}
    </Stack>
  );
}
