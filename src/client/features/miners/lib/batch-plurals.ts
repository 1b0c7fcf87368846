/**
 * Batch texts that carry two counts (an uploaded list's IPs and the farm's miners among them): each count takes its
 * own plural form (ru: "1 майнер", "3 майнера", "5 майнеров"), which one i18next key with one `count` cannot give.
 */
import type { TFunction } from 'i18next';

export interface UploadedCounts {
  name: string;
  /** Distinct IPs in the file. */
  count: number;
  /** How many of them are miners of the farm. */
  matched: number;
}

/** "IP list rack-7.txt: 3 IPs, 1 miner". */
export function uploadedListText(t: TFunction, u: UploadedCounts): string {
  return t('miners:batch.uploadedList', { name: u.name, ips: ipCountText(t, u.count), miners: minerCountText(t, u.matched) });
}

/** "1 IP" / "3 IPs". */
export function ipCountText(t: TFunction, count: number): string {
  return t('miners:batch.ipCount', { count });
}

/** "1 miner" / "3 miners" (ru: майнер / майнера / майнеров). */
export function minerCountText(t: TFunction, count: number): string {
  return t('miners:batch.minerCount', { count });
}
