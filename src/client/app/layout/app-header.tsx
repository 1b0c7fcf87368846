/**
 * The header (spec 1 §2.2): farm selector, region selector (width 100), new-farm button, NUC indicator,
 * notification bell, language switcher, user panel, promotional link. At phone width the sidebar opens
 * from a burger, and the region/language controls move into the drawer, new farm and promo into the user menu.
 */
import { ActionIcon, Anchor, Badge, Box, Burger, Button, Group, Tooltip } from '@mantine/core';
import { IconExternalLink, IconPlus, IconServerOff, IconWifiOff } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@shared/schemas/auth';
import { BrandMark } from '@client/components/brand-mark';
import { LanguageSwitcher } from '@client/components/language-switcher';
import { useConnectivity } from '@client/lib/offline/connectivity';
import { FarmSelect } from '@client/features/shell/components/farm-select';
import { NucIndicator } from '@client/features/shell/components/nuc-indicator';
import { RegionSelect } from '@client/features/shell/components/region-select';
import { UserMenu } from '@client/features/shell/components/user-menu';
import { NotificationBell } from '@client/features/notifications/components/notification-bell';
import { OfflineIndicator } from '@client/features/offline/components/offline-indicator';

export interface AppHeaderProps {
  user: CurrentUser;
  phone: boolean;
  wide: boolean;
  drawerOpened: boolean;
  onBurger: () => void;
  onNewFarm: () => void;
  canCreateFarm: boolean;
  promoUrl: string | null;
}

/** Device offline (gray), or online but our server not answering (orange, lib/offline/connectivity.ts). */
function OfflineBadge() {
  const { t } = useTranslation('shell');
  const { online, reason } = useConnectivity();
  if (online) return null;
  const unreachable = reason === 'server-unreachable';
  return (
    <Tooltip label={t(unreachable ? 'serverUnreachable.hint' : 'offline.hint')} multiline w={280}>
      <Badge
        color={unreachable ? 'orange' : 'gray'}
        variant="filled"
        leftSection={unreachable ? <IconServerOff size={12} /> : <IconWifiOff size={12} />}
        data-testid="offline-badge"
        data-reason={reason}
        tt="none"
      >
        {t(unreachable ? 'serverUnreachable.label' : 'offline.label')}
      </Badge>
    </Tooltip>
  );
}

export function AppHeader({ user, phone, wide, drawerOpened, onBurger, onNewFarm, canCreateFarm, promoUrl }: AppHeaderProps) {
  const { t } = useTranslation('shell');
  if (phone) {
    return (
      <Group h="100%" px={8} gap={6} wrap="nowrap" justify="space-between">
        {/* The sm lines in a 36 px button (Mantine's is 28 px): a finger-size target, as the header's other buttons. */}
        <Burger opened={drawerOpened} onClick={onBurger} size="sm" w={36} h={36} p={9} aria-label={t('sidebar.open')} data-testid="sidebar-burger" />
        <Box style={{ flex: 1, minWidth: 0 }}>
          <FarmSelect width="100%" />
        </Box>
        {/* The offline indicator's icon says "offline" here: no room for the word badge at 360 px. */}
        <OfflineIndicator />
        <NucIndicator compact />
        <NotificationBell />
        <UserMenu user={user} compact onNewFarm={canCreateFarm ? onNewFarm : undefined} promoUrl={promoUrl} />
      </Group>
    );
  }
  return (
    <Group h="100%" px="md" gap="sm" wrap="nowrap" justify="space-between">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Anchor component={Link} to="/" underline="never" c="inherit" aria-label="Hashfield">
          <BrandMark withName={wide} />
        </Anchor>
        <FarmSelect width={wide ? 240 : 200} />
        <RegionSelect />
        {canCreateFarm &&
          (wide ? (
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={onNewFarm} data-testid="header-new-farm">
              {t('newFarm')}
            </Button>
          ) : (
            <Tooltip label={t('newFarm')}>
              <ActionIcon variant="light" size="lg" onClick={onNewFarm} aria-label={t('newFarm')} data-testid="header-new-farm">
                <IconPlus size={18} />
              </ActionIcon>
            </Tooltip>
          ))}
      </Group>
      <Group gap={wide ? 'sm' : 6} wrap="nowrap">
        <OfflineBadge />
        <OfflineIndicator />
        <NucIndicator />
        {promoUrl &&
          (wide ? (
            <Anchor href={promoUrl} target="_blank" rel="noopener noreferrer" size="sm" data-testid="promo-link">
              <Group gap={4} wrap="nowrap">
                {t('promo')}
                <IconExternalLink size={14} />
              </Group>
            </Anchor>
          ) : (
            <Tooltip label={t('promo')}>
              <ActionIcon component="a" href={promoUrl} target="_blank" rel="noopener noreferrer" variant="subtle" color="gray" size="lg" aria-label={t('promo')} data-testid="promo-link">
                <IconExternalLink size={18} />
              </ActionIcon>
            </Tooltip>
          ))}
        <NotificationBell />
        <LanguageSwitcher compact={!wide} />
        <UserMenu user={user} compact={!wide} />
      </Group>
    </Group>
  );
}
