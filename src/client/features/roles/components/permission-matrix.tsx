import { Fragment } from 'react';
import { Badge, Checkbox, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MenuEntry } from '@shared/menu-catalogue';
import { columnState, matrixSections, setCell, setCells, type MatrixColumn } from '../lib/permission-matrix';

export interface PermissionMatrixProps {
  value: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
  readOnly?: boolean;
}

const SECTIONS = matrixSections();
const ALL = SECTIONS.flatMap((s) => s.entries);
const COLUMNS: readonly MatrixColumn[] = ['view', 'operate'];

/** Rows = menu sections and entries; columns = view (menu key) and operate (operation key). */
export function PermissionMatrix({ value, onChange, readOnly = false }: PermissionMatrixProps) {
  const { t } = useTranslation(['roles', 'menu']);

  const groupBox = (entries: readonly MenuEntry[], column: MatrixColumn, label: string) => {
    const state = columnState(value, entries, column);
    return (
      <Checkbox
        aria-label={label}
        checked={state === 'all'}
        indeterminate={state === 'some'}
        disabled={readOnly}
        onChange={(e) => onChange(setCells(value, entries, column, e.currentTarget.checked))}
      />
    );
  };

  return (
    <ScrollArea.Autosize mah={{ base: '55dvh', sm: '45vh' }} type="auto" offsetScrollbars data-testid="permission-matrix">
      <Table stickyHeader verticalSpacing={6} horizontalSpacing="xs" miw={300} layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('roles:matrix.entry')}</Table.Th>
            {COLUMNS.map((c) => (
              <Table.Th key={c} w={76} ta="center">
                <Stack gap={4} align="center">
                  <Text size="xs" fw={600}>
                    {t(`roles:matrix.${c}`)}
                  </Text>
                  {groupBox(ALL, c, t(`roles:matrix.allColumn.${c}`))}
                </Stack>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {SECTIONS.map(({ section, entries }) => {
            const sectionTitle = t(`menu:section.${section}`);
            return (
              <Fragment key={section}>
                <Table.Tr bg="var(--mantine-color-default-hover)" data-section={section}>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {sectionTitle}
                    </Text>
                  </Table.Td>
                  {COLUMNS.map((c) => (
                    <Table.Td key={c} ta="center">
                      <Group justify="center">{groupBox(entries, c, `${t('roles:matrix.selectSection')} ${sectionTitle}: ${t(`roles:matrix.${c}`)}`)}</Group>
                    </Table.Td>
                  ))}
                </Table.Tr>
                {entries.map((entry) => {
                  const title = t(`menu:${entry.key}`);
                  return (
                    <Table.Tr key={entry.key} data-entry={entry.key}>
                      <Table.Td pl={entry.parent ? 36 : 20}>
                        <Group gap={6} wrap="wrap">
                          <Text size="sm">{title}</Text>
                          {entry.hidden && (
                            <Badge size="xs" variant="light" color="gray">
                              {t('roles:matrix.hiddenPage')}
                            </Badge>
                          )}
                          {entry.selfMiner && (
                            <Badge size="xs" variant="light" color="grape">
                              {t('roles:matrix.selfMiner')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      {COLUMNS.map((c) => (
                        <Table.Td key={c} ta="center">
                          <Group justify="center">
                            <Checkbox
                              aria-label={`${title}: ${t(`roles:matrix.${c}`)}`}
                              data-perm={c === 'view' ? entry.permission : entry.operation}
                              checked={value.has(c === 'view' ? entry.permission : entry.operation)}
                              disabled={readOnly}
                              onChange={(e) => onChange(setCell(value, entry, c, e.currentTarget.checked))}
                            />
                          </Group>
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
