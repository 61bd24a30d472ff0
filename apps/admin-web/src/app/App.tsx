import { createHashRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import { MantineProvider, Modal, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cmsRolesCan, type WebConfig } from '@fanfare/protocol';
import { ServicesProvider, useSession } from '../api/context.tsx';
import type { CmsApi } from '../api/cms.ts';
import type { SessionStore } from '../auth/session.ts';
import { ForgotPasswordScreen } from '../auth/ForgotPasswordScreen.tsx';
import { ResetPasswordScreen } from '../auth/ResetPasswordScreen.tsx';
import { SessionExpiryWatcher } from '../auth/SessionExpiryWatcher.tsx';
import { SetupScreen } from '../auth/SetupScreen.tsx';
import { SignInScreen } from '../auth/SignInScreen.tsx';
import { Empty } from '../ui/States.tsx';
import { Layout } from './Layout.tsx';
import { SECTIONS, type Section } from './sections.tsx';

// Indigo 8 and gray 7 on white pass WCAG AA for text; Mantine's orange and its default dimmed gray do not.
// Every dialog's close button is named (axe: button-name); Mantine leaves it unlabelled.
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, sans-serif',
  respectReducedMotion: true,
  components: { Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }) },
});
const cssVariablesResolver: CSSVariablesResolver = (t) => ({ variables: {}, light: { '--mantine-color-dimmed': t.colors.gray[7]! }, dark: {} });

/**
 * Screens behind sign-in: no session sends the user to sign in, remembering where they were; an
 * account still to set up (first admin) goes to the set-up screen first, remembering it too.
 */
function RequireSession() {
  const session = useSession();
  const location = useLocation();
  const from = location.pathname + location.search;
  if (!session) return <Navigate to="/sign-in" replace state={{ from }} />;
  if (session.user.must_change_password && location.pathname !== '/setup') return <Navigate to="/setup" replace state={{ from }} />;
  return (
    <>
      <SessionExpiryWatcher />
      <Outlet />
    </>
  );
}

/** A section the user's roles do not grant shows a refusal (the server refuses the calls anyway). */
function RequirePermission({ section }: { section: Section }) {
  const session = useSession();
  if (!session || !cmsRolesCan(session.user.roles, section.permission)) {
    return <Empty title="Not available to your role">Ask an admin if you need access to {section.label}.</Empty>;
  }
  return <Outlet />;
}

function createRouter() {
  return createHashRouter([
    { path: '/sign-in', element: <SignInScreen /> },
    { path: '/forgot-password', element: <ForgotPasswordScreen /> },
    { path: '/reset-password', element: <ResetPasswordScreen /> },
    {
      element: <RequireSession />,
      children: [
        { path: '/setup', element: <SetupScreen /> },
        {
          element: <Layout />,
          children: [
            { index: true, element: <Navigate to="/campaigns" replace /> },
            ...SECTIONS.map((section) => ({
              path: section.path,
              element: <RequirePermission section={section} />,
              children: section.routes.map(({ path, Component }) => (path === '' ? { index: true, Component } : { path, Component })),
            })),
            { path: '*', element: <Empty title="Page not found" /> },
          ],
        },
      ],
    },
  ]);
}

export function App({ api, session, config, queryClient }: { api: CmsApi; session: SessionStore; config: WebConfig; queryClient: QueryClient }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <ServicesProvider services={{ api, session, config }}>
          <RouterProvider router={createRouter()} />
        </ServicesProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

export { QueryClient };
