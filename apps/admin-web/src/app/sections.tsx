/**
 * The back office's sections: one row per entry of the navigation, with its route and the
 * permission it needs (from the protocol's role table). A new section (e.g. Parties) adds one
 * row here and its own folder; nothing else changes.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { CmsPermission } from '@fanfare/protocol';

export interface Section {
  /** Route path below `#/`, e.g. `campaigns`. Child routes go in `routes`. */
  path: string;
  label: string;
  permission: CmsPermission;
  /** The section's screens, relative to `path` (`''` is the section's index). */
  routes: { path: string; Component: LazyExoticComponent<ComponentType> | ComponentType }[];
}

export const SECTIONS: Section[] = [
  {
    path: 'campaigns',
    label: 'Campaigns',
    permission: 'campaigns.read',
    routes: [
      { path: '', Component: lazy(() => import('../campaigns/CampaignsScreen.tsx')) },
      { path: ':id', Component: lazy(() => import('../campaigns/CampaignEditorScreen.tsx')) },
      { path: ':id/subscribers', Component: lazy(() => import('../newsletter/SubscribersScreen.tsx')) },
      { path: ':id/token-gate', Component: lazy(() => import('../tokenGate/TokenGateScreen.tsx')) },
    ],
  },
  {
    path: 'parties',
    label: 'Parties',
    permission: 'party.admin',
    routes: [
      { path: '', Component: lazy(() => import('../parties/PartiesScreen.tsx')) },
      { path: ':id', Component: lazy(() => import('../parties/PartyEditorScreen.tsx')) },
      { path: ':id/dashboard', Component: lazy(() => import('../parties/dashboard/DashboardScreen.tsx')) },
      { path: ':id/operations', Component: lazy(() => import('../parties/operations/OperationsScreen.tsx')) },
      { path: ':id/recap', Component: lazy(() => import('../parties/recap/RecapScreen.tsx')) },
    ],
  },
  {
    path: 'subscribers',
    label: 'Subscribers',
    permission: 'newsletter.export',
    routes: [{ path: '', Component: lazy(() => import('../newsletter/AllSubscribersScreen.tsx')) }],
  },
  { path: 'media', label: 'Media', permission: 'uploads.read', routes: [{ path: '', Component: lazy(() => import('../media/MediaScreen.tsx')) }] },
  { path: 'apps', label: 'Apps & translations', permission: 'apps.read', routes: [{ path: '', Component: lazy(() => import('../apps/AppsScreen.tsx')) }] },
  { path: 'people', label: 'People', permission: 'users.manage', routes: [{ path: '', Component: lazy(() => import('../people/PeopleScreen.tsx')) }] },
  { path: 'data-rights', label: 'Data rights', permission: 'dataRights.manage', routes: [{ path: '', Component: lazy(() => import('../dataRights/DataRightsScreen.tsx')) }] },
  { path: 'audit', label: 'Audit log', permission: 'audit.read', routes: [{ path: '', Component: lazy(() => import('../audit/AuditScreen.tsx')) }] },
];
