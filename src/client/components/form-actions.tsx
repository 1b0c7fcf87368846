/** A dialog form's footer: cancel (off while the form saves) and the submit button with its progress. */
import { Button, Group } from '@mantine/core';

interface FormActionsProps {
  cancel: string;
  onCancel: () => void;
  /** The submit button's text; none: a read-only dialog, only the cancel (close) button. */
  submit?: string;
  pending: boolean;
  submitDisabled?: boolean;
  submitTestId?: string;
}

export function FormActions({ cancel, onCancel, submit, pending, submitDisabled, submitTestId }: FormActionsProps) {
  return (
    <Group justify="flex-end" mt="xs">
      <Button variant="default" onClick={onCancel} disabled={pending}>
        {cancel}
      </Button>
      {submit !== undefined && (
        <Button type="submit" loading={pending} disabled={submitDisabled} data-testid={submitTestId}>
          {submit}
        </Button>
      )}
    </Group>
  );
}
