/**
 * A table row's action buttons: an icon with its tooltip, named with the row for screen readers ("Edit: pool A"),
 * and the edit + delete pair most settings tables end with.
 */
import type { ReactNode } from 'react';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { usePhone } from '@client/lib/use-phone';

interface RowActionProps {
  /** What the button does ("Edit"): its tooltip, and the start of its accessible name. */
  text: string;
  /** The row it acts on ("pool A"): the end of its accessible name. */
  subject: string;
  icon: ReactNode;
  onClick: () => void;
  color?: string;
  disabled?: boolean;
}

export function RowAction({ text, subject, icon, onClick, color, disabled }: RowActionProps) {
  // A finger's target on a phone: 34 px (two fit the 100 px actions column and the 40 px row); 28 px with a mouse.
  const phone = usePhone();
  return (
    <Tooltip label={text} withArrow>
      <ActionIcon variant="subtle" size={phone ? 'lg' : undefined} color={color} aria-label={`${text}: ${subject}`} disabled={disabled} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** A row of action buttons, centred in its cell. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Group gap={4} justify="center" wrap="nowrap">
      {children}
    </Group>
  );
}

interface EditDeleteProps {
  /** The page's namespace: its `actions.edit` and `actions.delete`. */
  t: (key: 'actions.edit' | 'actions.delete') => string;
  subject: string;
  onEdit: () => void;
  onDelete: () => void;
  /** e.g. one's own user account */
  deleteDisabled?: boolean;
}

export function EditDeleteActions({ t, subject, onEdit, onDelete, deleteDisabled }: EditDeleteProps) {
  return (
    <RowActions>
      <RowAction text={t('actions.edit')} subject={subject} icon={<IconPencil size={16} />} onClick={onEdit} />
      <RowAction text={t('actions.delete')} subject={subject} icon={<IconTrash size={16} />} color="red" disabled={deleteDisabled} onClick={onDelete} />
    </RowActions>
  );
}
