/**
 * The file store's payment links (stores/link-store.ts) in the `links` table (schema version 4,
 * sqlite-schema.ts): the record as JSON beside the columns its reads look up. A create and a
 * compare-and-set are each one transaction taken with SQLite's write lock first (`BEGIN
 * IMMEDIATE`), so two processes on one file cannot both claim a single-use link. Link writes are
 * fsynced (sqlite-fsync.ts): a claim is written before a pay-in is posted, and a claim lost to a
 * power cut could let a second payer pay a single-use link.
 */
import type { LinkRecord } from '../../model/link.js';
import type { LinkStore } from '../link-store.js';
import { durably } from './sqlite-fsync.js';
import type { SqliteDatabase } from './sqlite-open.js';

/** Schema version 4's table; exported for the schema's migration. */
export const linksTable = `
CREATE TABLE links (
  link_id TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  retain_until INTEGER NOT NULL,
  record TEXT NOT NULL             -- the LinkRecord as JSON
) STRICT;
-- The links' list, newest first (listLinks).
CREATE INDEX links_created ON links (created_at, link_id);
`;

interface LinkRow {
  revision: number;
  retain_until: number;
  record: string;
}

export function createSqliteLinks(db: SqliteDatabase, now: () => number): LinkStore & { sweep(at: number): void } {
  const row = db.prepare<[string], LinkRow>('SELECT revision, retain_until, record FROM links WHERE link_id = ?');
  const insert = db.prepare('INSERT OR REPLACE INTO links (link_id, revision, created_at, retain_until, record) VALUES (?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE links SET revision = ?, retain_until = ?, record = ? WHERE link_id = ? AND revision = ? AND retain_until > ?');
  const page = db.prepare<[number, number, number, string, number], { record: string }>(
    `SELECT record FROM links WHERE retain_until > ? AND (created_at < ? OR (created_at = ? AND link_id < ?))
     ORDER BY created_at DESC, link_id DESC LIMIT ?`,
  );
  const expired = db.prepare('DELETE FROM links WHERE retain_until <= ?');
  const parse = (text: string) => JSON.parse(text) as LinkRecord;

  const create = db.transaction((link: LinkRecord, at: number) => {
    const existing = row.get(link.linkId);
    if (existing && existing.retain_until > at) return { created: false, link: parse(existing.record) };
    insert.run(link.linkId, link.revision, link.createdAt, link.retainUntil, JSON.stringify(link));
    return { created: true, link: parse(JSON.stringify(link)) };
  });

  return {
    async createLinkIfAbsent(link) {
      return durably(db, () => create.immediate(link, now()));
    },
    async getLink(linkId) {
      const found = row.get(linkId);
      return found && found.retain_until > now() ? parse(found.record) : undefined;
    },
    async compareAndSetLink(linkId, expectedRevision, next) {
      if (next.linkId !== linkId) throw new TypeError(`compareAndSetLink(${linkId}) was given link ${next.linkId}`);
      // One statement: the revision compared and the row written under one write lock.
      return durably(db, () => update.run(next.revision, next.retainUntil, JSON.stringify(next), linkId, expectedRevision, now()).changes === 1);
    },
    async listLinks({ before, limit }) {
      // Without a cursor, one past every id: the largest safe time and an id above any base64url one.
      const cursor = before ?? { createdAt: Number.MAX_SAFE_INTEGER, linkId: '~' };
      return page.all(now(), cursor.createdAt, cursor.createdAt, cursor.linkId, limit).map((found) => parse(found.record));
    },
    sweep(at) {
      expired.run(at);
    },
  };
}
