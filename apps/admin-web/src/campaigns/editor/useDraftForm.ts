import { useForm } from '@mantine/form';
import { PatchCampaignBody, type Campaign } from '@fanfare/protocol';
import { zodResolver } from '../../forms/zodResolver.ts';
import { toDraft, toPatch, type Draft } from './draft.ts';

/** The editor's form: the draft of every field, validated with the server's patch schema. */
export function useDraftForm(initial: Campaign) {
  return useForm<Draft>({ initialValues: toDraft(initial), validate: zodResolver(PatchCampaignBody, toPatch) });
}

export type DraftForm = ReturnType<typeof useDraftForm>;
