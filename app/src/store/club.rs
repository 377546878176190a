//! Read-only queries for the club sync (`crate::sync`): what each match holds, and a run of
//! entries, without reading whole headers or logs.

use super::error::sql;
use super::{MatchId, Store, StoredEntry, count_column};

impl Store {
    /// Every match with its entry count, by id (cheap: no headers are read).
    pub fn entry_counts(&self) -> Result<Vec<(MatchId, u64)>, super::StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, entry_count FROM matches ORDER BY id")
            .map_err(|e| sql(path, e))?;
        let rows = stmt
            .query_map([], |row| Ok((MatchId(row.get(0)?), count_column(row, 1)?)))
            .map_err(|e| sql(path, e))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| sql(path, e))
    }

    /// At most `limit` entries of match `id` from sequence number `from` on, in order.
    pub fn entries_from(
        &self,
        id: MatchId,
        from: u64,
        limit: usize,
    ) -> Result<Vec<StoredEntry>, super::StoreError> {
        let path = &self.path;
        let from = i64::try_from(from).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT seq, at_ms, input_json FROM entries WHERE match_id = ?1 AND seq >= ?2
                 ORDER BY seq LIMIT ?3",
            )
            .map_err(|e| sql(path, e))?;
        let rows = stmt
            .query_map([id.0, from, limit], |row| {
                Ok(StoredEntry {
                    seq: count_column(row, 0)?,
                    at_ms: row.get(1)?,
                    input_json: row.get(2)?,
                })
            })
            .map_err(|e| sql(path, e))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| sql(path, e))
    }
}
