/**
 * Columns shared by the pages that list miners taken off shelf (off-shelf records, off-shelf maintenance): the IP,
 * a link to the miner while the farm still has it, and its network state (or "removed").
 */
import { Badge } from '@mantine/core';
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
        <Link to={`/device/miner/detail?ip=${encodeURIComponent(r.ip)}`} onClick={(e) => e.stopPropagation()}>
          {r.ip}
        </Link>
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
