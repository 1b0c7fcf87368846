import { Center, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "Loading" shown while a lazy page or its data arrives (spec 1 §2.1). */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <Center mih={240} role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{t('loading')}</Text>
      </Group>
    </Center>
  );
}

/** Full-screen spinner (the main layout until the current user is known). */
export function FullScreenLoader() {
  return (
    <Center h="100dvh" role="status" aria-busy="true" data-testid="app-spinner">
      <Loader />
    </Center>
  );
}
