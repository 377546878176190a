//! Checks done on a file *before* anything is written to it.
//!
//! Two stages, both read-only:
//!
//! 1. [`inspect_file`] reads the first 100 bytes itself (no SQLite involved): a file that is not
//!    an SQLite database, is cut short, or carries a foreign `application_id` or a newer
//!    `user_version` in its header is refused here, and SQLite never opens it.
//! 2. [`validate`] runs on a connection opened with `SQLITE_OPEN_READONLY` and checkpoint-on-close
//!    disabled: it reads `application_id`, `user_version` and the schema size through SQLite
//!    (which sees any committed-but-not-checkpointed WAL content) and runs `PRAGMA quick_check`.
//!
//! Only after both pass does [`Store::open`](super::Store::open) open a read-write connection and
//! set the journal mode.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};

use super::error::{StoreError, sql};
use super::schema::{APPLICATION_ID, user_version};
use super::{BUSY_TIMEOUT, Store};

/// The 16 bytes every SQLite 3 database file begins with.
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Size of the SQLite database header.
const HEADER_LEN: usize = 100;

/// At most this many `quick_check` complaints are quoted in an error.
const QUICK_CHECK_QUOTED: usize = 3;

/// What [`inspect_file`] found at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FileState {
    /// Nothing there yet.
    Missing,
    /// A zero-byte file, which SQLite treats as an empty database.
    Empty,
    /// A file with a plausible SQLite header.
    Sqlite,
}

/// Checks the header of the file at `path` without SQLite.
pub(super) fn inspect_file(path: &Path) -> Result<FileState, StoreError> {
    let io_error = |cause| StoreError::Io {
        path: path.to_path_buf(),
        cause,
    };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(FileState::Missing),
        Err(e) => return Err(io_error(e)),
    };
    if meta.is_dir() {
        return Err(StoreError::IsADirectory {
            path: path.to_path_buf(),
        });
    }
    let len = meta.len();
    if len == 0 {
        return Ok(FileState::Empty);
    }
    let mut header = Vec::with_capacity(HEADER_LEN);
    File::open(path)
        .and_then(|file| file.take(HEADER_LEN as u64).read_to_end(&mut header))
        .map_err(io_error)?;
    check_header(path, &header, len, recovery_pending(path))?;
    Ok(FileState::Sqlite)
}

/// True when a non-empty `-wal` or `-journal` file sits beside the database: then the main file
/// alone is not the whole truth (its header may be stale, its size may be mid-change), and only
/// SQLite can judge it.
fn recovery_pending(path: &Path) -> bool {
    ["-wal", "-journal"]
        .iter()
        .any(|suffix| fs::metadata(companion(path, suffix)).is_ok_and(|meta| meta.len() > 0))
}

/// The path of a companion file of the database: `<path>-wal`, `<path>-shm`, `<path>-journal`.
fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut side = OsString::from(path.as_os_str());
    side.push(suffix);
    PathBuf::from(side)
}

/// Whether the `-wal` and `-shm` companions of a database existed before a check.
///
/// A read-only SQLite connection to a WAL-mode file creates both (the `-wal` empty) if they are
/// missing, and cannot remove them when it closes. When the file is then refused, Tableside
/// removes them again, so a refused file is left exactly as it was found. Only an empty `-wal`
/// that was absent before, with its `-shm` also absent before, is removed: a companion that
/// existed, or a `-wal` with content, belongs to someone else and is never touched.
#[derive(Debug)]
pub(super) struct Companions {
    wal: PathBuf,
    shm: PathBuf,
    existed: bool,
}

impl Companions {
    /// Notes whether the companions of `path` exist now.
    pub(super) fn note(path: &Path) -> Companions {
        let wal = companion(path, "-wal");
        let shm = companion(path, "-shm");
        let existed = fs::symlink_metadata(&wal).is_ok() || fs::symlink_metadata(&shm).is_ok();
        Companions { wal, shm, existed }
    }

    /// Removes the companions created since [`Companions::note`], if the `-wal` is empty.
    /// Best effort: a companion that cannot be removed is harmless (SQLite validates and
    /// rebuilds a stale `-shm`, and an empty `-wal` holds nothing).
    pub(super) fn remove_if_created(self) {
        if self.existed || !fs::metadata(&self.wal).is_ok_and(|meta| meta.len() == 0) {
            return;
        }
        let _ = fs::remove_file(&self.wal);
        let _ = fs::remove_file(&self.shm);
    }
}

fn be_u16(header: &[u8], at: usize) -> Option<u16> {
    let bytes = header.get(at..at + 2)?;
    Some(u16::from_be_bytes([bytes[0], bytes[1]]))
}

fn be_u32(header: &[u8], at: usize) -> Option<u32> {
    let bytes = header.get(at..at + 4)?;
    Some(u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

fn be_i32(header: &[u8], at: usize) -> Option<i32> {
    be_u32(header, at).map(|v| i32::from_be_bytes(v.to_be_bytes()))
}

/// Judges the first bytes of a file of `len` bytes (see the SQLite file format, section 1.3).
///
/// With `pending` (a WAL or hot journal beside it) only the magic string is judged.
fn check_header(path: &Path, header: &[u8], len: u64, pending: bool) -> Result<(), StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        detail,
    };
    if !header.starts_with(MAGIC) {
        // A file cut inside the magic string itself is a truncated database, not a foreign file.
        if !header.is_empty() && header.len() < MAGIC.len() && MAGIC.starts_with(header) {
            return Err(corrupt(format!("it is cut short: only {len} bytes")));
        }
        return Err(StoreError::NotADatabase {
            path: path.to_path_buf(),
        });
    }
    let (
        Some(raw_page_size),
        Some(change_counter),
        Some(page_count),
        Some(version),
        Some(app_id),
        Some(valid_for),
    ) = (
        be_u16(header, 16),
        be_u32(header, 24),
        be_u32(header, 28),
        be_i32(header, 60),
        be_i32(header, 68),
        be_u32(header, 92),
    )
    else {
        return Err(corrupt(format!(
            "it is cut short: only {len} bytes, less than an SQLite header"
        )));
    };
    let page_size = if raw_page_size == 1 {
        65_536
    } else {
        u64::from(raw_page_size)
    };
    if !page_size.is_power_of_two() || !(512..=65_536).contains(&page_size) {
        return Err(corrupt(format!(
            "its header gives an impossible page size of {page_size} bytes"
        )));
    }
    if pending {
        return Ok(());
    }
    if app_id != 0 && app_id != APPLICATION_ID {
        return Err(StoreError::ForeignDatabase {
            path: path.to_path_buf(),
            application_id: app_id,
        });
    }
    if i64::from(version) > Store::SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found: i64::from(version),
            supported: Store::SCHEMA_VERSION,
        });
    }
    if !len.is_multiple_of(page_size) {
        return Err(corrupt(format!(
            "it is cut short or padded: {len} bytes is not a whole number of {page_size}-byte pages"
        )));
    }
    // The page count in the header is only meaningful when its "valid-for" stamp matches the
    // change counter (SQLite file format, section 1.3.9).
    if page_count != 0 && change_counter == valid_for && u64::from(page_count) * page_size > len {
        return Err(corrupt(format!(
            "it is cut short: its header counts {page_count} pages of {page_size} bytes, \
             but the file holds only {len} bytes"
        )));
    }
    Ok(())
}

/// Opens `path` read-only for checking (and for [`Store::open_read_only`]): SQLite never writes
/// the main file through this connection, not even a checkpoint when it closes.
pub(super) fn open_read_only_connection(path: &Path) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| sql(path, e))?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .map_err(|e| sql(path, e))?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| sql(path, e))?;
    conn.pragma_update(None, "query_only", true)
        .map_err(|e| sql(path, e))?;
    Ok(conn)
}

/// Opens `path` as an immutable file (SQLite's `immutable=1` URI parameter): no lock, no
/// `-shm`, no `-wal` is read or made. Only for read-only media, where nobody can be writing the
/// file and the `-shm` a WAL reader needs cannot be created.
pub(super) fn open_immutable_connection(path: &Path) -> Result<Connection, StoreError> {
    let mut uri = String::from("file:");
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(&uri, flags).map_err(|e| sql(path, e))?;
    conn.pragma_update(None, "query_only", true)
        .map_err(|e| sql(path, e))?;
    Ok(conn)
}

/// True when the companion `<path><suffix>` (`-wal`, `-journal`) exists and is not empty.
pub(super) fn has_content(path: &Path, suffix: &str) -> bool {
    fs::metadata(companion(path, suffix)).is_ok_and(|meta| meta.len() > 0)
}

/// Checks, through a read-only connection, that the file is a sound Tableside match log of a
/// schema version this build understands, and returns that version (0 for an empty database).
///
/// Everything is read in one read transaction: a file another process is creating or migrating
/// at this moment is seen either before or after each of its commits, never half-way (the
/// application id of one state with the schema of another would look like a foreign file).
pub(super) fn validate(conn: &Connection, path: &Path) -> Result<i64, StoreError> {
    let _snapshot = if conn.is_autocommit() {
        Some(conn.unchecked_transaction().map_err(|e| sql(path, e))?)
    } else {
        None
    };
    let app_id: i32 = conn
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .map_err(|e| sql(path, e))?;
    let version = user_version(conn).map_err(|e| sql(path, e))?;
    let objects: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .map_err(|e| sql(path, e))?;
    let empty = version == 0 && objects == 0;
    if app_id != APPLICATION_ID && !(app_id == 0 && empty) {
        return Err(StoreError::ForeignDatabase {
            path: path.to_path_buf(),
            application_id: app_id,
        });
    }
    if version > Store::SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found: version,
            supported: Store::SCHEMA_VERSION,
        });
    }
    if version < 0 || (version == 0 && !empty) {
        return Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: format!("its schema version {version} does not match its contents"),
        });
    }
    let mut complaints = Vec::new();
    let mut stmt = conn
        .prepare("PRAGMA quick_check")
        .map_err(|e| sql(path, e))?;
    let mut rows = stmt.query([]).map_err(|e| sql(path, e))?;
    while let Some(row) = rows.next().map_err(|e| sql(path, e))? {
        let line: String = row.get(0).map_err(|e| sql(path, e))?;
        if line != "ok" {
            complaints.push(line);
        }
    }
    if !complaints.is_empty() {
        let total = complaints.len();
        complaints.truncate(QUICK_CHECK_QUOTED);
        let mut detail = format!("SQLite quick_check: {}", complaints.join("; "));
        if total > QUICK_CHECK_QUOTED {
            detail.push_str(&format!(
                " (and {} more problems)",
                total - QUICK_CHECK_QUOTED
            ));
        }
        return Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            detail,
        });
    }
    Ok(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(page_size: u16, pages: u32, version: i32, app_id: i32) -> Vec<u8> {
        let mut h = vec![0u8; HEADER_LEN];
        h[..16].copy_from_slice(MAGIC);
        h[16..18].copy_from_slice(&page_size.to_be_bytes());
        h[24..28].copy_from_slice(&7u32.to_be_bytes());
        h[28..32].copy_from_slice(&pages.to_be_bytes());
        h[60..64].copy_from_slice(&version.to_be_bytes());
        h[68..72].copy_from_slice(&app_id.to_be_bytes());
        h[92..96].copy_from_slice(&7u32.to_be_bytes());
        h
    }

    fn check(h: &[u8], len: u64, pending: bool) -> Result<(), StoreError> {
        check_header(Path::new("t.sqlite3"), h, len, pending)
    }

    #[test]
    fn a_sound_header_passes() {
        check(&header(4096, 3, 1, APPLICATION_ID), 3 * 4096, false).unwrap();
        check(&header(4096, 3, 0, 0), 3 * 4096, false).unwrap();
        // Page size 1 encodes 65536.
        check(&header(1, 2, 1, APPLICATION_ID), 2 * 65_536, false).unwrap();
    }

    #[test]
    fn wrong_magic_is_not_a_database_and_a_cut_magic_is_corrupt() {
        let err = check(b"hello world, this is text", 25, false).unwrap_err();
        assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
        let err = check(b"SQLite for", 10, false).unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
        let err = check(&MAGIC[..16], 16, false).unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    }

    #[test]
    fn impossible_page_size_is_corrupt() {
        let err = check(&header(1000, 1, 1, APPLICATION_ID), 1000, false).unwrap_err();
        assert!(err.to_string().contains("page size"), "{err}");
    }

    #[test]
    fn header_marks_are_judged_only_without_a_pending_wal() {
        let foreign = header(4096, 1, 1, 0x0102_0304);
        let err = check(&foreign, 4096, false).unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::ForeignDatabase {
                    application_id: 0x0102_0304,
                    ..
                }
            ),
            "{err:?}"
        );
        let newer = header(4096, 1, 9, APPLICATION_ID);
        let err = check(&newer, 4096, false).unwrap_err();
        assert!(
            matches!(err, StoreError::TooNew { found: 9, .. }),
            "{err:?}"
        );
        // With a WAL beside it, SQLite judges instead (the header may be stale).
        check(&foreign, 4096, true).unwrap();
        check(&newer, 4096, true).unwrap();
        check(&header(4096, 5, 1, APPLICATION_ID), 4096 + 10, true).unwrap();
    }

    #[test]
    fn truncation_is_seen_from_size_and_page_count() {
        let h = header(4096, 5, 1, APPLICATION_ID);
        let err = check(&h, 4 * 4096 + 100, false).unwrap_err();
        assert!(err.to_string().contains("whole number"), "{err}");
        let err = check(&h, 2 * 4096, false).unwrap_err();
        assert!(err.to_string().contains("counts 5 pages"), "{err}");
        // A stale page count (valid-for stamp differs) is not trusted.
        let mut stale = h.clone();
        stale[92..96].copy_from_slice(&6u32.to_be_bytes());
        check(&stale, 2 * 4096, false).unwrap();
    }
}
