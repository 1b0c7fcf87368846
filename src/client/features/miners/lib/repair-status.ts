import type { RepairStatus } from '@shared/miner-labels';

/** The badge colour of each repair status (off-shelf maintenance and off-shelf records). */
export const REPAIR_COLOR: Record<RepairStatus, string> = { awaiting: 'orange', onsite: 'blue', outsourced: 'grape', pendingShelf: 'green', scrapped: 'gray' };
