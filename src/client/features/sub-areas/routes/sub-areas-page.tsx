import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Badge, Box, Button, Center, Group, Loader, Menu, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconArrowsMove, IconChevronDown, IconChevronRight, IconDots, IconPencil, IconPlus, IconRoute, IconSitemap, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeader } from '@client/components/page-header';
import { useAgentKey } from '@client/lib/agent-key';
import { confirmDeletion, notifyFailure } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { formatNumber } from '@shared/format/number';
import { SUB_AREA_LIMITS, SUB_AREA_PERMISSION, SUB_IP_PERMISSION, type SubArea } from '@shared/schemas/sub-areas';
import { useDeleteSubArea, useSubAreas } from '../api/sub-areas-api';
import { type AreaDialogState, SubAreaDialog } from '../components/sub-area-dialogs';
import { type TreeNode, buildTree } from '../lib/sub-area-tree';
import { NoFarmState } from '@client/components/no-farm-state';

interface NodeProps {
  node: TreeNode;
  canOperate: boolean;
  collapsed: ReadonlySet<number>;
  toggle: (id: number) => void;
  act: (action: 'add' | 'rename' | 'move' | 'delete', area: SubArea) => void;
}

function AreaNode({ node, canOperate, collapsed, toggle, act }: NodeProps) {
  const { t } = useTranslation('sub-areas');
  const { area, children } = node;
  const open = !collapsed.has(area.id);
  const label = area.path.join(' / ');
  return (
    <Box role="treeitem" aria-level={area.level} aria-expanded={children.length ? open : undefined} aria-label={area.name} data-testid={`sub-area-${area.id}`}>
      <Group gap={4} wrap="nowrap" py={4} pl={(area.level - 1) * 14} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        {children.length > 0 ? (
          <ActionIcon variant="subtle" size="sm" onClick={() => toggle(area.id)} aria-label={open ? t('tree.collapse', { name: area.name }) : t('tree.expand', { name: area.name })}>
            {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          </ActionIcon>
        ) : (
          <Box w={22} />
        )}
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={500} truncate title={label}>
            {area.name}
          </Text>
          <Group gap={6} wrap="wrap">
            <Text size="xs" c="dimmed">
              {t('tree.level', { level: area.level })} · #{area.id}
            </Text>
            <Text size="xs" c="dimmed">
              {t('tree.miners', { count: area.minerCount, formatted: formatNumber(area.minerCount) })}
            </Text>
            {area.segmentCount > 0 && (
              <Badge size="xs" variant="light" tt="none">
                {t('tree.segments', { count: area.segmentCount })}
              </Badge>
            )}
          </Group>
        </Stack>
        {canOperate && (
          <Group gap={2} wrap="nowrap">
            <ActionIcon variant="subtle" onClick={() => act('add', area)} aria-label={t('actions.addChildOf', { name: area.name })} data-testid={`sub-area-add-${area.id}`}>
              <IconPlus size={16} />
            </ActionIcon>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={t('actions.more', { name: area.name })} data-testid={`sub-area-menu-${area.id}`}>
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => act('rename', area)}>
                  {t('actions.rename')}
                </Menu.Item>
                <Menu.Item leftSection={<IconArrowsMove size={14} />} onClick={() => act('move', area)}>
                  {t('actions.move')}
                </Menu.Item>
                <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => act('delete', area)} data-testid={`sub-area-delete-${area.id}`}>
                  {t('actions.delete')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        )}
      </Group>
      {open && children.length > 0 && (
        <Box role="group">
          {children.map((c) => (
            <AreaNode key={c.area.id} node={c} canOperate={canOperate} collapsed={collapsed} toggle={toggle} act={act} />
          ))}
        </Box>
      )}
    </Box>
  );
}

/** /setting/agent/subArea: the farm's sub-mining areas as a tree of at most 5 levels (spec 3 §5). */
export function SubAreasPage() {
  const { t } = useTranslation(['sub-areas', 'errors']);
  const agentKey = useAgentKey();
  const { has } = usePermissions();
  const canOperate = has(SUB_AREA_PERMISSION.operate);
  const areas = useSubAreas(agentKey);
  const remove = useDeleteSubArea();
  const [dialog, setDialog] = useState<AreaDialogState>({ mode: 'closed' });
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const list = useMemo(() => areas.data ?? [], [areas.data]);
  const tree = useMemo(() => buildTree(list), [list]);

  const toggle = (id: number) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const act = (action: 'add' | 'rename' | 'move' | 'delete', area: SubArea) => {
    if (!agentKey) return;
    if (action === 'add') {
      // Spec 3 §5: at most 5 levels; the server refuses a 6th with the same message.
      if (area.level >= SUB_AREA_LIMITS.maxLevels) return notifyFailure(new Error(t('errors:validation.subAreaLevelLimit')), '');
      if (area.segmentCount > 0) return notifyFailure(new Error(t('errors:validation.subAreaHasSegments')), '');
      return setDialog({ mode: 'create', parent: area });
    }
    if (action === 'rename') return setDialog({ mode: 'rename', area });
    if (action === 'move') return setDialog({ mode: 'move', area });
    if (area.childCount > 0) return notifyFailure(new Error(t('errors:validation.subAreaDeleteChildrenFirst')), '');
    const body = area.segmentCount > 0 ? t('sub-areas:delete.bodyWithSegments', { name: area.name, count: area.segmentCount }) : t('sub-areas:delete.body', { name: area.name });
    confirmDeletion(t, body, (done) => remove.mutate({ agentKey, id: area.id }, done));
  };

  const header = (
    <PageHeader
      title={t('sub-areas:page.title')}
      description={t('sub-areas:page.description', { max: SUB_AREA_LIMITS.maxLevels })}
      actions={
        agentKey && (
          <>
            {has(SUB_IP_PERMISSION.view) && (
              <Button component={Link} to="/setting/agent/subIp" variant="default" leftSection={<IconRoute size={16} />}>
                {t('sub-areas:page.toSubIp')}
              </Button>
            )}
            {canOperate && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create', parent: null })} data-testid="sub-area-add-top">
                {t('sub-areas:actions.addTop')}
              </Button>
            )}
          </>
        )
      }
    />
  );

  if (!agentKey) {
    return (
      <Stack gap="md">
        {header}
        <NoFarmState />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {header}
      <Paper withBorder p={{ base: 'xs', sm: 'sm' }}>
        {areas.isPending ? (
          <Center py="xl">
            <Loader size="sm" aria-label={t('sub-areas:page.loading')} />
          </Center>
        ) : areas.isError ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('sub-areas:page.loadFailed')}>
            <Button size="xs" variant="light" onClick={() => void areas.refetch()}>
              {t('sub-areas:actions.retry')}
            </Button>
          </Alert>
        ) : tree.length === 0 ? (
          <Stack align="center" gap={6} py="lg">
            <IconSitemap size={32} stroke={1.4} />
            <Text fw={500}>{t('sub-areas:page.empty')}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('sub-areas:page.emptyHelp')}
            </Text>
            {canOperate && (
              <UnstyledButton onClick={() => setDialog({ mode: 'create', parent: null })}>
                <Text size="sm" c="blue">
                  {t('sub-areas:actions.addTop')}
                </Text>
              </UnstyledButton>
            )}
          </Stack>
        ) : (
          <Box role="tree" aria-label={t('sub-areas:page.title')} data-testid="sub-area-tree">
            {tree.map((n) => (
              <AreaNode key={n.area.id} node={n} canOperate={canOperate} collapsed={collapsed} toggle={toggle} act={act} />
            ))}
          </Box>
        )}
      </Paper>
      {canOperate && <SubAreaDialog agentKey={agentKey} state={dialog} areas={list} onClose={() => setDialog({ mode: 'closed' })} />}
    </Stack>
  );
}
