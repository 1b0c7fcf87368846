/**
 * A row of filter buttons, each with its count ("All 12", "Awaiting repair 3" …), the chosen one filled. They wrap
 * onto more lines on a phone instead of making one strip wider than the screen, and are 32 px tall there (a finger's
 * target; 22 px on the desktop), with the same compact text so that the strip does not take more lines.
 */
import { Button, Group } from '@mantine/core';
import { formatNumber } from '@shared/format/number';
import { usePhone } from '@client/lib/use-phone';

export interface CountFilterOption<V extends string> {
  /** null: no filter ("All"). */
  value: V | null;
  label: string;
  /** undefined while the counts load. */
  count: number | undefined;
  color?: string;
}

export function CountFilter<V extends string>({
  options,
  value,
  onChange,
  testId,
}: {
  options: readonly CountFilterOption<V>[];
  value: V | null;
  onChange: (value: V | null) => void;
  /** Test id of the row; each button is `<testId>-<value | all>`. */
  testId: string;
}) {
  const phone = usePhone();
  return (
    <Group gap={6} wrap="wrap" data-testid={testId}>
      {options.map((o) => (
        <Button
          key={o.value ?? 'all'}
          size="compact-xs"
          h={phone ? 32 : undefined}
          variant={value === o.value ? 'filled' : 'default'}
          color={o.value ? o.color : undefined}
          onClick={() => onChange(o.value)}
          aria-pressed={value === o.value}
          data-testid={`${testId}-${o.value ?? 'all'}`}
        >
          {o.label} {o.count === undefined ? '…' : formatNumber(o.count)}
        </Button>
      ))}
    </Group>
  );
}
