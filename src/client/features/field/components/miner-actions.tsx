/**
 * The technician's writes on the miner card (issue 5): Add note, Mark fault, Change customer. Each goes into
 * the durable outbox (works offline; sent once when the network returns); the card shows what is still
 * waiting (a "pending" chip, the new customer) until the server has it.
 */
import { Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconNote, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { minerLabel } from '@shared/miner-labels';
import type { FaultLabel } from '@shared/schemas/miner-snapshot';
import type { MinerSyncRow } from '@shared/schemas/sync';
import { currentLocale } from '@client/lib/i18n';
import type { Cached } from '@client/lib/offline/db';
import { pendingCustomer, queueMinerCustomer, queueMinerFault, queueMinerNote } from '@client/lib/offline/miner-writes';
import { usePendingForMiner } from '@client/lib/offline/outbox';
import { MinerCustomerDialog } from './miner-customer-dialog';
import { MinerFaultDialog } from './miner-fault-dialog';
import { MinerNoteDialog } from './miner-note-dialog';

type Dialog = 'note' | 'fault' | 'customer' | null;

export function MinerOfflineActions({ agentKey, miner }: { agentKey: string; miner: Cached<MinerSyncRow> }) {
  const { t } = useTranslation('offline');
  const [dialog, setDialog] = useState<Dialog>(null);
  const entries = usePendingForMiner(agentKey, miner.ip);
  const waiting = entries.filter((e) => e.state !== 'dead').length;
  const refused = entries.length - waiting;
  const pc = pendingCustomer(entries);
  const customer = pc ? pc.customer : miner.customer;
  const close = () => setDialog(null);

  const saved = async (work: () => Promise<unknown>) => {
    try {
      await work();
      notifications.show({ color: navigator.onLine ? 'green' : 'blue', message: navigator.onLine ? t('actions.savedOnline') : t('actions.savedOffline'), autoClose: 3000 });
      close();
    } catch (err) {
      notifications.show({ color: 'red', message: t('actions.saveFailed', { message: err instanceof Error ? err.message : String(err) }) });
    }
  };

  return (
    <Stack gap="xs" data-testid="miner-offline-actions">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="miner-customer-shown">
          {t('actions.customerNow', { customer: customer ?? t('actions.noCustomer') })}
        </Text>
        {waiting > 0 && (
          <Badge color="blue" variant="light" data-testid="miner-pending-chip">
            {t('actions.pendingChip', { count: waiting })}
          </Badge>
        )}
        {refused > 0 && (
          <Badge color="red" variant="light" data-testid="miner-refused-chip">
            {t('actions.refusedChip')}
          </Badge>
        )}
      </Group>
      {/* One full-width button per line on a phone (arm's length), three in a row from 576 px. */}
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <Button size="md" variant="light" leftSection={<IconNote size={18} />} onClick={() => setDialog('note')} data-testid="miner-add-note">
          {t('actions.addNote')}
        </Button>
        <Button size="md" variant="light" color="red" leftSection={<IconAlertTriangle size={18} />} onClick={() => setDialog('fault')} data-testid="miner-mark-fault">
          {t('actions.markFault')}
        </Button>
        <Button size="md" variant="light" leftSection={<IconUser size={18} />} onClick={() => setDialog('customer')} data-testid="miner-change-customer">
          {t('actions.changeCustomer')}
        </Button>
      </SimpleGrid>
      <MinerNoteDialog
        opened={dialog === 'note'}
        ip={miner.ip}
        onClose={close}
        onSave={(text) => saved(() => queueMinerNote(agentKey, miner.ip, text, t('label.note', { ip: miner.ip })))}
      />
      <MinerFaultDialog
        opened={dialog === 'fault'}
        ip={miner.ip}
        onClose={close}
        onSave={(fault: FaultLabel, text) =>
          saved(() => queueMinerFault(agentKey, miner.ip, fault, text, t('label.fault', { ip: miner.ip, fault: minerLabel(currentLocale(), 'faultType', fault) })))
        }
      />
      <MinerCustomerDialog
        opened={dialog === 'customer'}
        agentKey={agentKey}
        ip={miner.ip}
        current={customer}
        onClose={close}
        onSave={(next) =>
          saved(() =>
            queueMinerCustomer(
              agentKey,
              miner.ip,
              next,
              miner.marksVersion,
              next === null ? t('label.customerClear', { ip: miner.ip }) : t('label.customer', { ip: miner.ip, customer: next }),
            ),
          )
        }
      />
    </Stack>
  );
}
