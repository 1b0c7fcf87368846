/**
 * The technician's writes on the miner card (issue 5): Add note, Mark fault, Change customer. Each goes into
 * the durable outbox (works offline; sent once when the network returns); the card shows what is still
 * waiting (a "pending" chip, the new customer) until the server has it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { minerLabel } from '@shared/miner-labels';
import type { MinerAccidentType } from '@shared/miner-labels';
import type { MinerSyncRow } from '@shared/schemas/sync';
import { currentLocale } from '@client/lib/i18n';
import { getConnectivity } from '@client/lib/offline/connectivity';
import type { Cached } from '@client/lib/offline/db';
import { pendingCustomer, queueMinerCustomer, queueMinerFault, queueMinerNote } from '@client/lib/offline/miner-writes';
import { usePendingForMiner } from '@client/lib/offline/outbox';
import { showToast } from '../lib/toasts';
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
      const { online, reason } = getConnectivity();
      const message = online ? t('actions.savedOnline') : reason === 'server-unreachable' ? t('actions.savedUnreachable') : t('actions.savedOffline');
      showToast({ tone: online ? 'success' : 'info', message, autoClose: 3000 });
      close();
    } catch (err) {
      showToast({ tone: 'error', message: t('actions.saveFailed', { message: err instanceof Error ? err.message : String(err) }) });
    }
  };

  return (
    <div className="hf-stack-tight" data-testid="miner-offline-actions">
      <div className="hf-row hf-row-wrap hf-row-start">
        <span className="hf-small hf-dimmed" data-testid="miner-customer-shown">
          {t('actions.customerNow', { customer: customer ?? t('actions.noCustomer') })}
        </span>
        {waiting > 0 && (
          <span className="hf-chip hf-chip-blue" data-testid="miner-pending-chip">
            {t('actions.pendingChip', { count: waiting })}
          </span>
        )}
        {refused > 0 && (
          <span className="hf-chip hf-chip-red" data-testid="miner-refused-chip">
            {t('actions.refusedChip')}
          </span>
        )}
      </div>
      {/* One full-width button per line on a phone (arm's length), three in a row from 576 px. */}
      <div className="hf-grid hf-grid-1-3">
        <button type="button" className="hf-button hf-button-light hf-button-md" onClick={() => setDialog('note')} data-testid="miner-add-note">
          <span aria-hidden>✎</span> {t('actions.addNote')}
        </button>
        <button type="button" className="hf-button hf-button-light-red hf-button-md" onClick={() => setDialog('fault')} data-testid="miner-mark-fault">
          <span aria-hidden>⚠</span> {t('actions.markFault')}
        </button>
        <button type="button" className="hf-button hf-button-light hf-button-md" onClick={() => setDialog('customer')} data-testid="miner-change-customer">
          <span aria-hidden>☺</span> {t('actions.changeCustomer')}
        </button>
      </div>
      {dialog === 'note' && (
        <MinerNoteDialog ip={miner.ip} onClose={close} onSave={(text) => saved(() => queueMinerNote(agentKey, miner.ip, text, t('label.note', { ip: miner.ip })))} />
      )}
      {dialog === 'fault' && (
        <MinerFaultDialog
          ip={miner.ip}
          onClose={close}
          onSave={(fault: MinerAccidentType, text) =>
            saved(() => queueMinerFault(agentKey, miner.ip, fault, text, t('label.fault', { ip: miner.ip, fault: minerLabel(currentLocale(), 'accident', fault) })))
          }
        />
      )}
      {dialog === 'customer' && (
        <MinerCustomerDialog
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
      )}
    </div>
  );
}
