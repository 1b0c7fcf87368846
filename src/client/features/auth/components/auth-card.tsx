/** Frame of the screens shown before login: product mark, language switcher, a centred card. */
import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandMark } from '@client/components/brand-mark';
import { LanguageSwitcher } from '@client/components/language-switcher';

export interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  testId?: string;
}

export function AuthCard({ title, subtitle, children, testId }: AuthCardProps) {
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <Group justify="space-between" px="md" h={56}>
        <BrandMark />
        <LanguageSwitcher />
      </Group>
      <Center px="sm" pb="xl" pt={{ base: 'md', sm: 48 }}>
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={420} data-testid={testId}>
          <Stack gap="md">
            <Stack gap={4}>
              <Title order={2} size="h3">
                {title}
              </Title>
              {subtitle && (
                <Text c="dimmed" size="sm">
                  {subtitle}
                </Text>
              )}
            </Stack>
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
