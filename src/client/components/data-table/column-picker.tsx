/**
 * Column picker of DataTable: a popover listing every column with a checkbox, drag-and-drop
 * ordering (HTML5) plus up/down buttons for keyboard and touch, and a reset action.
 * At least one column must stay visible (spec 2 §5 "select at least one column").
 */
import { useState, type DragEvent, type ReactNode } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconColumns3, IconGripVertical } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';
import type { Column } from './data-table-types';
import classes from './data-table.module.css';

export interface ColumnPickerProps<Row> {
  /** Every column in the user's order, hidden ones included. */
  columns: readonly Column<Row>[];
  hiddenKeys: ReadonlySet<string>;
  onMove: (key: string, toIndex: number) => void;
  /** Returns false when the change was refused (last visible column). */
  onToggle: (key: string, visible: boolean) => boolean;
  onReset: () => void;
}

export function columnLabel<Row>(column: Column<Row>): string {
  if (column.label) return column.label;
  if (typeof column.title === 'string' || typeof column.title === 'number') return String(column.title);
  return column.key;
}

const DRAG_TYPE = 'text/plain';

export function ColumnPicker<Row>({ columns, hiddenKeys, onMove, onToggle, onReset }: ColumnPickerProps<Row>): ReactNode {
  const { t } = useTranslation('table');
  // Tap targets of at least 32 px on a phone (the compact reset button is 26 px tall, the arrows 22 px).
  const phone = usePhone();
  const [opened, setOpened] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const [dragKey, setDragKey] = useState<string | null>(null);
  const [overKey, setOverKey] = useState<string | null>(null);

  const toggle = (key: string, visible: boolean) => {
    setBlocked(!onToggle(key, visible));
  };

  const move = (key: string, toIndex: number) => {
    setBlocked(false);
    onMove(key, toIndex);
  };

  const onDragStart = (event: DragEvent<HTMLDivElement>, key: string) => {
    setDragKey(key);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(DRAG_TYPE, key);
  };

  const onDragOver = (event: DragEvent<HTMLDivElement>, key: string) => {
    if (dragKey === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (overKey !== key) setOverKey(key);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>, targetKey: string) => {
    event.preventDefault();
    const source = dragKey ?? event.dataTransfer.getData(DRAG_TYPE);
    setDragKey(null);
    setOverKey(null);
    if (!source || source === targetKey) return;
    const toIndex = columns.findIndex((column) => column.key === targetKey);
    if (toIndex >= 0) move(source, toIndex);
  };

  const onDragEnd = () => {
    setDragKey(null);
    setOverKey(null);
  };

  return (
    <Popover
      opened={opened}
      onDismiss={() => {
        setOpened(false);
        setBlocked(false);
      }}
      position="bottom-end"
      shadow="md"
      width={300}
      withinPortal
    >
      <Popover.Target>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('columnSettings')}
          title={t('columnSettings')}
          data-testid="column-picker-button"
          onClick={() => setOpened((value) => !value)}
        >
          <IconColumns3 size={18} stroke={1.6} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid="column-picker">
        <Stack gap="xs">
          {/* The title wraps, the reset button keeps its whole label ("Сбросить" was cut off by a long ru title). */}
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} size="sm" className={classes.pickerTitle}>
              {t('columnSettings')}
            </Text>
            <Button
              variant="subtle"
              size="compact-sm"
              h={phone ? 32 : undefined}
              className={classes.pickerReset}
              onClick={() => {
                setBlocked(false);
                onReset();
              }}
              data-testid="column-picker-reset"
            >
              {t('reset')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {t('dragHint')}
          </Text>
          {blocked && (
            <Alert color="red" variant="light" p="xs" role="alert" data-testid="column-picker-message">
              {t('selectAtLeastOne')}
            </Alert>
          )}
          <div className={classes.pickerList} role="list" aria-label={t('columnSettings')}>
            {columns.map((column, index) => {
              const label = columnLabel(column);
              const visible = !hiddenKeys.has(column.key);
              return (
                <div
                  key={column.key}
                  role="listitem"
                  className={classes.pickerItem}
                  data-dragging={dragKey === column.key || undefined}
                  data-over={(overKey === column.key && dragKey !== column.key) || undefined}
                  data-testid={`column-picker-item-${column.key}`}
                  draggable
                  onDragStart={(event) => onDragStart(event, column.key)}
                  onDragOver={(event) => onDragOver(event, column.key)}
                  onDragLeave={() => setOverKey((current) => (current === column.key ? null : current))}
                  onDrop={(event) => onDrop(event, column.key)}
                  onDragEnd={onDragEnd}
                >
                  <IconGripVertical size={16} className={classes.pickerGrip} aria-hidden="true" />
                  <Checkbox
                    className={classes.pickerCheckbox}
                    classNames={{ body: classes.pickerCheckboxBody, label: classes.pickerCheckboxLabel }}
                    size={phone ? 'md' : 'sm'}
                    label={column.title}
                    aria-label={label}
                    checked={visible}
                    onChange={(event) => toggle(column.key, event.currentTarget.checked)}
                  />
                  <ActionIcon
                    variant="subtle"
                    size={phone ? 'lg' : 'sm'}
                    aria-label={t('moveUp', { column: label })}
                    disabled={index === 0}
                    onClick={() => move(column.key, index - 1)}
                  >
                    <IconArrowUp size={14} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size={phone ? 'lg' : 'sm'}
                    aria-label={t('moveDown', { column: label })}
                    disabled={index === columns.length - 1}
                    onClick={() => move(column.key, index + 1)}
                  >
                    <IconArrowDown size={14} />
                  </ActionIcon>
                </div>
              );
            })}
          </div>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
