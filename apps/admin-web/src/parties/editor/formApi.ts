import { useForm } from '@mantine/form';
import type { PartyFormValues } from '../partyForm.ts';

/** The party form, validated by a function of all values (the protocol schemas). */
export function usePartyForm(initialValues: PartyFormValues, validate: (values: PartyFormValues) => Record<string, string>) {
  return useForm<PartyFormValues>({ initialValues, validate });
}

/** The party form as sections receive it (Mantine's own return type does not resolve under NodeNext). */
export type PartyFormApi = ReturnType<typeof usePartyForm>;
