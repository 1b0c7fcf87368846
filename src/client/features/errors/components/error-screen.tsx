import { Center, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ErrorScreenProps {
  code?: string;
  title: string;
  message?: ReactNode;
  actions?: ReactNode;
  fullHeight?: boolean;
  testId?: string;
}

/** Shared look of the 403 / 404 / 500 / connection screens. */
export function ErrorScreen({ code, title, message, actions, fullHeight = false, testId }: ErrorScreenProps) {
  return (
    <Center mih={fullHeight ? '100dvh' : 360} p="md" data-testid={testId}>
      <Stack align="center" gap="sm" maw={480} ta="center">
        {code && (
          <Text fz={64} fw={800} c="brand" lh={1}>
            {code}
          </Text>
        )}
        <Title order={3}>{title}</Title>
        {message && <Text c="dimmed">{message}</Text>}
        {actions && <Group justify="center" mt="sm">{actions}</Group>}
      </Stack>
    </Center>
  );
}

