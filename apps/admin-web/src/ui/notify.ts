import { notifications } from '@mantine/notifications';

export const notifyDone = (message: string) => notifications.show({ color: 'teal', message, autoClose: 3000, closeButtonProps: { 'aria-label': 'Dismiss' } });
export const notifyError = (error: unknown, title = 'Could not save') =>
  notifications.show({ color: 'red', title, message: error instanceof Error ? error.message : String(error), autoClose: 6000, closeButtonProps: { 'aria-label': 'Dismiss' } });
