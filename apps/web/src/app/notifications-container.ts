// Mantine's toast container, loaded on its own (AppProviders); its store stays in the main bundle.
export { Notifications } from '@mantine/notifications';
