/**
 * Columns shared by the pages that list miners taken off shelf (off-shelf records, off-shelf maintenance): the IP,
 * a link to the miner while the farm still has it, and its network state (or "removed").
 */
import { Anchor, Badge } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Link } from 'react-router-dom';
import type { Column } from '@client/components/data-table/data-table-types';

interface OffShelfLike {
  ip: string;
  present: boolean;
  online: boolean;
}

export function offShelfIpColumn<R extends OffShelfLike>(title: string): Column<R> {
  return {
    key: 'ip',
    title,
    width: 140,
    render: (r) =>
      r.present ? (
        // Styled as the console's links (the miner list's IPs), not the browser's default blue underline; as tall as a
        // finger's tap (its line alone was 16 px on a phone), within the 40 px row.
        <Anchor
          component={Link}
          to={`/device/miner/detail?ip=${encodeURIComponent(r.ip)}`}
          size="sm"
          ff="monospace"
          style={{ display: 'inline-flex', alignItems: 'center', minHeight: 32 }}
          onClick={(e) => e.stopPropagation()}
          data-testid="off-shelf-ip-link"
        >
          {r.ip}
        </Anchor>
      ) : (
        r.ip
      ),
  };
}

/** The network column's text (also its export cell). */
export function offShelfNetworkText(t: TFunction<'miners'>, r: OffShelfLike): string {
  return !r.present ? t('offShelf.gone') : r.online ? t('offShelf.online') : t('offShelf.offline');
}

export function offShelfNetworkColumn<R extends OffShelfLike>(t: TFunction<'miners'>, title: string): Column<R> {
  return {
    key: 'network',
    title,
    width: 110,
    render: (r) => (
      <Badge color={!r.present ? 'gray' : r.online ? 'green' : 'red'} variant="light">
        {offShelfNetworkText(t, r)}
      </Badge>
    ),
  };
}
