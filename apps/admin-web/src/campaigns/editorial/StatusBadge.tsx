import { Badge } from '@mantine/core';
import type { CampaignStatus } from '@fanfare/protocol';

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
  changed: 'Changes not published',
};

/** Dark shades under white text: WCAG AA contrast. */
const STATUS_COLOURS: Record<CampaignStatus, string> = { draft: 'gray.7', scheduled: 'blue.9', published: 'teal.9', changed: 'indigo.9' };

/** Where a campaign stands for visitors: draft, scheduled, published, or published with edits not yet public. */
export function StatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <Badge color={STATUS_COLOURS[status]} variant="filled" data-testid="workflow-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
