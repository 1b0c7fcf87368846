/**
 * The sidebar (spec 1 §2.3): sections from /api/role/userAgentMenus, nested entries, 230 px expanded and
 * 80 px folded (icons with tooltips). The same navigation is rendered inside the phone drawer.
 */
import { ActionIcon, Box, Divider, NavLink, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { MenuNode } from '@shared/menu-catalogue';
import { MenuIcon } from '@client/components/menu-icon';
import { activeSidebarPath } from '../sidebar-model';

export { SIDEBAR_FOLDED_WIDTH, SIDEBAR_WIDTH } from '../sidebar-model';

export interface SidebarNavProps {
  sections: MenuNode[];
  folded: boolean;
  onNavigate?: () => void;
}

function containsPath(node: MenuNode, path: string): boolean {
  return node.path === path || node.routes.some((c) => containsPath(c, path));
}

function ExpandedEntry({ node, active, onNavigate }: { node: MenuNode; active: string; onNavigate?: () => void }) {
  const { t } = useTranslation('menu');
  const label = t(node.key);
  if (node.routes.length > 0) {
    return (
      <NavLink label={label} leftSection={<MenuIcon name={node.icon} />} defaultOpened={containsPath(node, active)} active={node.path === active}>
        {node.routes.map((child) => (
          <ExpandedEntry key={child.key} node={child} active={active} onNavigate={onNavigate} />
        ))}
      </NavLink>
    );
  }
  return (
    <NavLink
      component={Link}
      to={node.path}
      label={label}
      leftSection={<MenuIcon name={node.icon} />}
      active={node.path === active}
      onClick={onNavigate}
      data-menu-key={node.key}
    />
  );
}

function FoldedEntry({ node, active }: { node: MenuNode; active: string }) {
  const { t } = useTranslation('menu');
  const target = node.routes.length > 0 && node.routes[0] ? node.routes[0].path : node.path;
  const isActive = containsPath(node, active);
  return (
    <Tooltip label={t(node.key)} position="right" withArrow openDelay={150}>
      <UnstyledButton
        component={Link}
        to={target}
        aria-label={t(node.key)}
        data-menu-key={node.key}
        data-active={isActive || undefined}
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: 48,
          height: 44,
          borderRadius: 'var(--mantine-radius-md)',
          margin: '0 auto',
          color: isActive ? 'var(--mantine-color-white)' : 'var(--mantine-color-text)',
          background: isActive ? 'var(--mantine-primary-color-filled)' : undefined,
        }}
      >
        <MenuIcon name={node.icon} size={22} />
      </UnstyledButton>
    </Tooltip>
  );
}

export function SidebarNav({ sections, folded, onNavigate }: SidebarNavProps) {
  const { t } = useTranslation(['menu', 'shell']);
  const location = useLocation();
  const active = activeSidebarPath(location.pathname);
  return (
    <nav aria-label={t('shell:sidebar.label')} data-testid="sidebar-nav" data-folded={folded || undefined}>
      <Stack gap={folded ? 4 : 2}>
        {sections.map((section, i) =>
          folded ? (
            <Stack key={section.key} gap={4}>
              {i > 0 && <Divider my={4} />}
              {section.routes.map((node) => (
                <FoldedEntry key={node.key} node={node} active={active} />
              ))}
            </Stack>
          ) : (
            <Box key={section.key} mb={6}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt={i > 0 ? 'xs' : 0} pb={4}>
                {t(`menu:section.${section.key}`)}
              </Text>
              {section.routes.map((node) => (
                <ExpandedEntry key={node.key} node={node} active={active} onNavigate={onNavigate} />
              ))}
            </Box>
          ),
        )}
      </Stack>
    </nav>
  );
}

export interface AppSidebarProps {
  sections: MenuNode[];
  folded: boolean;
  onToggle: () => void;
}

/** The desktop/tablet sidebar with its fold toggle at the bottom. */
export function AppSidebar({ sections, folded, onToggle }: AppSidebarProps) {
  const { t } = useTranslation('shell');
  const label = folded ? t('sidebar.expand') : t('sidebar.fold');
  return (
    <>
      <ScrollArea style={{ flex: 1 }} type="scroll" px={folded ? 0 : 'xs'} py="sm">
        <SidebarNav sections={sections} folded={folded} />
      </ScrollArea>
      <Box p="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)', display: 'flex', justifyContent: folded ? 'center' : 'flex-end' }}>
        <Tooltip label={label} position="right">
          <ActionIcon variant="subtle" color="gray" size="lg" onClick={onToggle} aria-label={label} aria-expanded={!folded} data-testid="sidebar-toggle">
            {folded ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
          </ActionIcon>
        </Tooltip>
      </Box>
    </>
  );
}
