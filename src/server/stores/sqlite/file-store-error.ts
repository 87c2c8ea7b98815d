/**
 * The file store's one error, in a module of its own: the public declarations reach it without
 * reaching the SQLite driver's types (a merchant's project type-checks without @types/better-sqlite3).
 */
export class FileStoreUnavailableError extends Error {
  override name = 'FileStoreUnavailableError';
}
