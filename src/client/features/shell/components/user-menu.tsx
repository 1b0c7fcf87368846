/** Header user panel: name, user center, logout. On phones it also carries the header's overflow actions. */
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconExternalLink, IconLogout, IconPlus, IconUserCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@shared/schemas/auth';
import { logout } from '../logout';

export interface UserMenuProps {
  user: CurrentUser;
  compact?: boolean;
  /** Phone layout: the new-farm action and the promo link live in this menu. */
  onNewFarm?: () => void;
  promoUrl?: string | null;
  extra?: ReactNode;
}

export function UserMenu({ user, compact = false, onNewFarm, promoUrl, extra }: UserMenuProps) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('user.menu')} data-testid="user-menu" style={{ borderRadius: 'var(--mantine-radius-md)' }} px={4} py={2}>
          <Group gap={6} wrap="nowrap">
            <Avatar size={30} radius="xl" color="brand">
              {user.user.slice(0, 1).toUpperCase()}
            </Avatar>
            {!compact && (
              <>
                <Text size="sm" fw={500} maw={120} truncate>
                  {user.user}
                </Text>
                <IconChevronDown size={14} />
              </>
            )}
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {user.user}
          {user.roleName ? ` · ${user.roleName}` : ''}
        </Menu.Label>
        {onNewFarm && (
          <Menu.Item leftSection={<IconPlus size={16} />} onClick={onNewFarm} data-testid="menu-new-farm">
            {t('newFarm')}
          </Menu.Item>
        )}
        {promoUrl && (
          <Menu.Item component="a" href={promoUrl} target="_blank" rel="noopener noreferrer" leftSection={<IconExternalLink size={16} />}>
            {t('promo')}
          </Menu.Item>
        )}
        {extra}
        <Menu.Item leftSection={<IconUserCircle size={16} />} onClick={() => navigate('/user/center')} data-testid="menu-user-center">
          {t('user.center')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout(queryClient, (to) => navigate(to, { replace: true }))} data-testid="menu-logout">
          {t('user.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
