/**
 * The Postgres store's payment links (stores/link-store.ts) in `<schema>.links` (migration 5,
 * postgres-schema.ts): the record as json beside the columns its reads look up. A claim is one
 * conditional `UPDATE … WHERE revision = $expected`: under READ COMMITTED a second writer of the
 * row waits for the first to commit, then re-checks its WHERE on the new row and writes nothing,
 * so two processes cannot both claim a single-use link. Commits wait for the WAL on disk (the
 * store's default `synchronous_commit`): a claim is written before a pay-in is posted.
 */
import type { Pool } from 'pg';
import type { LinkRecord } from '../../model/link.js';
import type { LinkStore } from '../link-store.js';

/** Migration 5's statements. */
export const linksTableSql = (s: string) => `
CREATE TABLE ${s}.links (
  link_id text PRIMARY KEY,
  revision integer NOT NULL,
  created_at bigint NOT NULL,
  retain_until bigint NOT NULL,
  record json NOT NULL              -- the LinkRecord as written
);
-- The links' list, newest first (listLinks).
CREATE INDEX links_created ON ${s}.links (created_at DESC, link_id DESC);
`;

export function createPostgresLinks(pool: Pool, s: string, now: () => number): LinkStore {
  const get = async (linkId: string) =>
    (await pool.query<{ record: LinkRecord }>(`SELECT record FROM ${s}.links WHERE link_id = $1 AND retain_until > $2`, [linkId, now()])).rows[0]?.record;
  return {
    async createLinkIfAbsent(link) {
      // An expired row of the same id is replaced; a live one is kept (the WHERE of the conflict's update).
      const inserted = await pool.query(
        `INSERT INTO ${s}.links (link_id, revision, created_at, retain_until, record) VALUES ($1, $2, $3, $4, $5::json)
         ON CONFLICT (link_id) DO UPDATE SET revision = excluded.revision, created_at = excluded.created_at,
           retain_until = excluded.retain_until, record = excluded.record
         WHERE ${s}.links.retain_until <= $6`,
        [link.linkId, link.revision, link.createdAt, link.retainUntil, JSON.stringify(link), now()],
      );
      if (inserted.rowCount === 1) return { created: true, link: JSON.parse(JSON.stringify(link)) as LinkRecord };
      // Read after the conflict's wait: the other transaction has committed the live row.
      return { created: false, link: (await get(link.linkId))! };
    },
    getLink: get,
    async compareAndSetLink(linkId, expectedRevision, next) {
      if (next.linkId !== linkId) throw new TypeError(`compareAndSetLink(${linkId}) was given link ${next.linkId}`);
      const result = await pool.query(
        `UPDATE ${s}.links SET revision = $3, retain_until = $4, record = $5::json WHERE link_id = $1 AND revision = $2 AND retain_until > $6`,
        [linkId, expectedRevision, next.revision, next.retainUntil, JSON.stringify(next), now()],
      );
      return result.rowCount === 1;
    },
    async listLinks({ before, limit }) {
      if (limit <= 0) return [];
      const values: unknown[] = [now(), limit];
      const after = before ? `AND (created_at, link_id) < ($${values.push(before.createdAt)}, $${values.push(before.linkId)})` : '';
      const result = await pool.query<{ record: LinkRecord }>(
        `SELECT record FROM ${s}.links WHERE retain_until > $1 ${after} ORDER BY created_at DESC, link_id DESC LIMIT $2`,
        values,
      );
      return result.rows.map((row) => row.record);
    },
  };
}
