/**
 * The miner card, readable at arm's length: big status (an offline miner's with why its agent could not read it) and
 * hashrate, temperatures, fans, faults and error codes, zone (the sub-area holding its IP), shelf and seat, customer,
 * accident mark, identity, and how old the reading is. Pure view of a cached row.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { accidentText, errorCodeText, offlineReasonOf } from '@shared/miner-labels';
import { autoHashrate } from '@shared/units';
import type { CachedMiner } from '../lib/field-cache';
import { relativeAge } from '../lib/relative-age';
import { useFieldLabels } from '../lib/use-field-miner-labels';

/** "182.35 TH/s" from GH/s, in the unit that reads best. */
export function hashrateText(ghs: number): string {
  const { value, unit } = autoHashrate(ghs);
  return `${formatNumber(value, 2)} ${unit}`;
}

const tempText = (v: number | null) => (v === null ? '-' : `${formatNumber(v, 0)} °C`);

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="hf-fact">
      <div className="hf-dimmed hf-small">{label}</div>
      <div className="hf-fact-value" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

export function MinerCard({ miner }: { miner: CachedMiner }) {
  const { t, i18n } = useTranslation('field');
  const { label } = useFieldLabels();
  // An offline miner has no hashrate now: its last reading's real-time figure is not shown as if live (as in the
  // console's list and detail); the average and the ideal stay.
  const percent = miner.online && miner.rateIdeal > 0 ? Math.round((miner.gHS5s / miner.rateIdeal) * 1000) / 10 : null;
  const states = miner.statuses.filter((s) => s !== 'online' && s !== 'offline');
  const hot = (miner.tempChipMax ?? 0) >= 90;
  // Why an offline miner's agent cannot read it shows by its status; the other codes under its faults.
  const reason = offlineReasonOf(miner);
  const codes = miner.errorCodes ?? [];
  const firmwareCodes = reason ? codes.slice(1) : codes;
  const location = miner.offShelf
    ? t('card.offShelf')
    : miner.shelf
      ? miner.seat
        ? t('card.shelfSeat', { shelf: miner.shelf, seat: miner.seat })
        : miner.shelf
      : t('card.notPlaced');
  return (
    <div className="hf-stack" data-testid="field-card" data-miner-id={miner.id}>
      <section className="hf-paper">
        <div className="hf-row hf-row-top hf-row-wrap">
          <div className="hf-grow hf-card-id">
            <h2 className="hf-card-ip" data-testid="field-card-ip">
              {miner.ip}
            </h2>
            <div className="hf-large hf-mono hf-wrap" data-testid="field-card-sn">
              {miner.sn || t('card.noSn')}
            </div>
            <div className="hf-large" data-testid="field-card-model">
              {[miner.make, miner.model].filter(Boolean).join(' ') || '-'}
            </div>
          </div>
          <span className={`hf-status-badge ${miner.online ? 'is-online' : 'is-offline'}`} data-testid="field-card-status">
            {miner.online ? t('card.online') : t('card.offline')}
          </span>
        </div>
        {reason && (
          <p className="hf-large hf-text-red hf-mt" data-testid="field-card-offline-reason">
            {label('offlineReason', String(reason.code))}
          </p>
        )}
        {states.length > 0 && (
          <div className="hf-chips hf-mt" data-testid="field-card-states">
            {states.map((s) => (
              <span key={s} className={`hf-chip ${s === 'qualified' ? 'hf-chip-teal' : 'hf-chip-orange'}`}>
                {label('status', s)}
              </span>
            ))}
          </div>
        )}
      </section>

      <section className="hf-paper">
        <div className="hf-dimmed hf-small">{t('card.hashrate')}</div>
        <div className="hf-hashrate" data-testid="field-card-hashrate">
          {miner.online ? hashrateText(miner.gHS5s) : '—'}
        </div>
        <div className="hf-large" data-testid="field-card-ideal">
          {t('card.ideal', { value: hashrateText(miner.rateIdeal) })}
          {percent !== null && ` · ${t('card.ofIdeal', { percent: `${formatNumber(percent, 1)}%` })}`}
        </div>
        <div className="hf-dimmed hf-small">{t('card.average', { value: hashrateText(miner.gHSav) })}</div>
      </section>

      <section className="hf-paper hf-grid hf-grid-2-3">
        <Fact label={t('card.chipTemp')} testId="field-card-chip-temp">
          <span className={hot ? 'hf-text-red' : undefined}>{tempText(miner.tempChipMax)}</span>
        </Fact>
        <Fact label={t('card.pcbTemp')} testId="field-card-pcb-temp">
          {tempText(miner.tempPcbMax)}
        </Fact>
        <Fact label={t('card.fans')} testId="field-card-fans">
          {miner.fanMin === null || miner.fanMax === null ? '-' : t('card.fansValue', { min: formatNumber(miner.fanMin, 0), max: formatNumber(miner.fanMax, 0) })}
        </Fact>
        <Fact label={t('card.workMode')} testId="field-card-work-mode">
          {miner.workMode ? label('workMode', miner.workMode) : '-'}
        </Fact>
      </section>

      <section className="hf-paper">
        <div className="hf-dimmed hf-small hf-mb">{t('card.faults')}</div>
        {miner.faultLabels.length === 0 ? (
          <div className="hf-large" data-testid="field-card-faults">
            {t('card.noFaults')}
          </div>
        ) : (
          <div className="hf-chips" data-testid="field-card-faults">
            {miner.faultLabels.map((f) => (
              <span key={f} className="hf-chip hf-chip-red hf-chip-big">
                {label('faultType', f)}
              </span>
            ))}
          </div>
        )}
        {firmwareCodes.length > 0 && (
          <>
            <div className="hf-dimmed hf-small hf-mt hf-mb">{t('card.errorCodes')}</div>
            <div className="hf-stack-tight" data-testid="field-card-error-codes">
              {firmwareCodes.map((e, i) => (
                <div key={`${e.code}-${i}`} className="hf-large hf-wrap">
                  <span className="hf-mono">{e.code}</span> {errorCodeText(e, label)}
                </div>
              ))}
            </div>
          </>
        )}
      </section>

      <section className="hf-paper hf-grid hf-grid-1-2">
        <Fact label={t('card.zone')} testId="field-card-zone">
          {miner.zone ?? t('card.noZone')}
        </Fact>
        <Fact label={t('card.location')} testId="field-card-location">
          {location}
        </Fact>
        <Fact label={t('card.customer')} testId="field-card-customer">
          {miner.customer ?? t('card.noCustomer')}
        </Fact>
        <Fact label={t('card.accident')} testId="field-card-accident">
          {miner.accident ? accidentText(miner, label) : t('card.noAccident')}
        </Fact>
      </section>

      <p className="hf-dimmed hf-small" data-testid="field-card-as-of">
        {t('card.asOf', { time: formatDate(miner.takenAt), age: relativeAge(Date.parse(miner.takenAt), i18n.language) })}
      </p>
    </div>
  );
}
