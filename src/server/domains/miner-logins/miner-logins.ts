/**
 * A farm's miner logins (migration 202611230520): per firmware family, the user and password its agent tries on the
 * miners before the factory defaults. Farms change the default root/root; without a login of its own the agent reads
 * those miners' CGMiner API (no login) but not their web pages (MAC, SN, blink state, network mode) and cannot run
 * batch operations on them: the reading carries error -401.
 *
 * Stored encrypted (secret-box.ts); the console only sees users. The agent's configuration (GET
 * /api/agent-uplink/config, agent-token auth) carries them in clear as AgentConfig.credentials, this farm's logins
 * of a family first (oldest first), then any the farm's agent settings held before.
 */
import { AppError, fieldError } from '../../errors';
import type { DB } from '../../db/kysely';
import type {} from '../../db/miner-logins-schema';
import type { SecretBox } from '../../secret-box';
import type { AgentCredentials } from '@shared/schemas/agent-uplink';
import { MINER_LOGINS_PER_FAMILY, MINER_LOGIN_DEFAULT_USER, MINER_LOGIN_FAMILIES, type MinerLoginRow, type MinerLoginSaveBody } from '@shared/schemas/miner-logins';

const ROW = ['id', 'family', 'username', 'updated_at'] as const;

const toRow = (r: { id: string; family: MinerLoginRow['family']; username: string; updated_at: Date }): MinerLoginRow => ({
  id: r.id,
  family: r.family,
  user: r.username,
  updatedAt: r.updated_at.toISOString(),
});

/** The farm's logins, by family (MINER_LOGIN_FAMILIES order), then in the order the agent tries them. */
export async function listMinerLogins(db: DB, agentKey: string): Promise<MinerLoginRow[]> {
  const rows = await db.selectFrom('farm_miner_logins').select(ROW).where('agent_key', '=', agentKey).orderBy('created_at').orderBy('id').execute();
  const rank = (f: string) => MINER_LOGIN_FAMILIES.indexOf(f as MinerLoginRow['family']);
  return rows.map(toRow).sort((a, b) => rank(a.family) - rank(b.family));
}

/**
 * Adds a login (password required) or edits one (an empty password keeps the stored one). The same user and password
 * twice in a family is one login: adding it again answers the one there (a repeated request changes nothing).
 */
export async function saveMinerLogin(db: DB, box: SecretBox, b: MinerLoginSaveBody): Promise<MinerLoginRow> {
  return db.transaction().execute(async (trx) => {
    // One writer per farm at a time: the limit and the duplicate check below see every login added before.
    await trx.selectFrom('farms').select('agent_key').where('agent_key', '=', b.agentKey).forUpdate().executeTakeFirst();
    const family = await trx
      .selectFrom('farm_miner_logins')
      .select([...ROW, 'password_enc'])
      .where('agent_key', '=', b.agentKey)
      .where('family', '=', b.family)
      .execute();
    const existing = b.id
      ? await trx.selectFrom('farm_miner_logins').select(ROW).where('agent_key', '=', b.agentKey).where('id', '=', b.id).executeTakeFirst()
      : undefined;
    if (b.id && !existing) throw new AppError('notFound');
    if (!existing && b.password === '') throw fieldError('password', 'validation.minerLoginPasswordRequired');
    const same = family.find((r) => r.id !== existing?.id && r.username === b.user && (b.password === '' ? false : box.decrypt(r.password_enc) === b.password));
    if (same && !existing) return toRow(same);
    if (same) throw fieldError('password', 'validation.minerLoginDuplicate');
    const moved = existing !== undefined && existing.family !== b.family;
    if ((!existing || moved) && family.length >= MINER_LOGINS_PER_FAMILY) throw fieldError('family', 'validation.minerLoginLimit');
    const values = { family: b.family, username: b.user, ...(b.password === '' ? {} : { password_enc: box.encrypt(b.password) }) };
    const row = existing
      ? await trx.updateTable('farm_miner_logins').set({ ...values, updated_at: new Date() }).where('id', '=', existing.id).returning(ROW).executeTakeFirstOrThrow()
      : await trx
          .insertInto('farm_miner_logins')
          .values({ ...values, agent_key: b.agentKey, password_enc: box.encrypt(b.password) })
          .returning(ROW)
          .executeTakeFirstOrThrow();
    return toRow(row);
  });
}

/** Deletes a login of the farm; an id that is not the farm's (or gone already) changes nothing. */
export async function deleteMinerLogin(db: DB, agentKey: string, id: string): Promise<void> {
  await db.deleteFrom('farm_miner_logins').where('agent_key', '=', agentKey).where('id', '=', id).execute();
}

/**
 * The credentials the farm's agent tries: per family its logins here (in clear, oldest first), then those the farm's
 * agent settings held (`configured`), without repeats. A login whose password cannot be decrypted (the secret key
 * changed) is left out rather than failing the agent's whole configuration.
 */
export async function agentCredentials(db: DB, box: SecretBox, agentKey: string, configured: AgentCredentials): Promise<AgentCredentials> {
  const rows = await db.selectFrom('farm_miner_logins').select(['family', 'username', 'password_enc']).where('agent_key', '=', agentKey).orderBy('created_at').orderBy('id').execute();
  const out: AgentCredentials = { antminer: [], whatsminer: [], braiins: [], vnish: [], luxos: [] };
  for (const r of rows) {
    let password: string;
    try {
      password = box.decrypt(r.password_enc);
    } catch {
      continue;
    }
    out[r.family].push({ user: r.username || MINER_LOGIN_DEFAULT_USER[r.family], password });
  }
  for (const f of MINER_LOGIN_FAMILIES) {
    for (const c of configured[f] ?? []) if (!out[f].some((o) => o.user === c.user && o.password === c.password)) out[f].push(c);
  }
  return out;
}
