//! The match store: every match and every input of it, in one SQLite file.
//!
//! A match is its log (DESIGN.md, principle 2). The store keeps, per match, a header (the game
//! and its setup, as JSON), a status (open or finished, with the outcome), and the log: a
//! sequence of entries numbered 0, 1, 2, … each holding one input as JSON text. The store does
//! not look inside the JSON: the `cards` crate writes and reads it. The app appends an input
//! *before* it changes the state; when [`Store::append`] returns `Ok`, the entry is on disk.
//!
//! The log is append-only, enforced twice: [`Store::append`] takes exactly the next sequence
//! number (never a gap, never an overwrite), and SQL triggers in the file refuse any `UPDATE` or
//! `DELETE` of an entry and any out-of-order insert, whoever the writer. An undo is a new entry.
//!
//! # Durability: the pragmas
//!
//! Set by [`Store::open`] on every read-write connection:
//!
//! - `journal_mode = WAL` (stored in the file). A commit appends the changed pages to the
//!   `-wal` file; a checkpoint copies them into the main file later (automatically every
//!   1000 pages, and when the last connection closes).
//! - `synchronous = FULL`. In WAL mode this fsyncs the `-wal` file at every commit, before
//!   `COMMIT` returns. So once [`Store::append`] (or any other write) returns `Ok`, the entry
//!   survives a killed process *and* a power cut, provided the disk honours fsync. (`NORMAL`
//!   would survive a killed process but could lose the last commits on power loss; it is not
//!   used.)
//! - `fullfsync = ON`, `checkpoint_fullfsync = ON`: on macOS, use `F_FULLFSYNC`, since a plain
//!   `fsync` there does not reach the platter. No effect on Linux or Windows.
//! - `foreign_keys = ON`: an entry must belong to an existing match.
//! - `busy_timeout = 5 s`: a second Tableside process (the UI and `tableside log` at once)
//!   waits for the other's write instead of failing at once. Writes use `BEGIN IMMEDIATE`.
//!
//! When `open` creates a new file, it also fsyncs the folder holding it, so the file's name
//! survives a power cut too (SQLite syncs the folder for its `-wal` file itself); when it
//! creates the data folder, it fsyncs the folder above it as well, so the folder's own name
//! survives. When a match finishes, a passive checkpoint copies it from the WAL into the main
//! file, so later damage to the `-wal` file cannot take a finished match.
//!
//! # When the disk fails
//!
//! With `synchronous = FULL`, a commit writes its frames to the `-wal` file and then fsyncs it.
//! If that write or fsync fails (EIO, ENOSPC), SQLite reports the error, but the frames may be
//! whole in the file: a restart's WAL recovery would find them and bring back an input the
//! player was told had failed, who then enters it again and records it twice. So after a
//! failed commit the store at once commits a write that changes nothing of meaning (see
//! `overwrite_failed_commit`): SQLite's next commit starts where the failed one did, and WAL
//! frames chain their checksums, so once it succeeds the failed commit can never be recovered,
//! and the error says so: [`StoreError::NotSaved`], "was not saved … enter it again". If that
//! write fails too, the disk keeps failing and nobody can promise either way:
//! [`StoreError::InDoubt`] says the input may have been saved or not, names it, and the store
//! refuses every later write ([`StoreError::Stopped`]); after a restart the match resumes
//! from what the disk holds. Either way the player is told the truth.
//!
//! # Reading: one snapshot per report
//!
//! Everything that reports on a match (export, `log show`, replay, the history screen) reads
//! through [`Store::read`]: one read transaction, so the record and the entries are one state
//! of the file even while a match is being written by another process. A match whose record is
//! still open is reported as in progress, with the entries read so far. The checks at opening
//! also read in one transaction, and opening takes a lock on the data folder while it judges,
//! creates or migrates the file (exclusive for read-write, shared for read-only opens), so two
//! Tableside processes starting at once on a new folder never see each other's half-made file.
//! A damaged match row ([`Store::list`]) is named with its match; every other match stays
//! readable.
//!
//! # Read-only media
//!
//! An SD card the kernel remounted read-only after an error is the usual Pi failure.
//! [`Store::open`] refuses at once with [`StoreError::ReadOnlyMedia`] ("the SD card … is
//! read-only: matches cannot be saved"). [`Store::open_read_only`] still reads the history: a
//! WAL-mode file needs its `-shm` index, which cannot be created there, so it uses an existing
//! `-shm` read-only (SQLite does that, WAL content included), or else opens the main file as
//! immutable (`immutable=1`), and [`Store::read_only_media`] says which, and why. On writable
//! media a read-only open also recovers a crash-left journal itself.
//!
//! # Opening: judge first, write later
//!
//! [`Store::open`] never writes to a file it has not accepted. Before anything that writes
//! (setting the journal mode, migrating), it checks the file in two read-only stages: its own
//! reading of the 100-byte SQLite header (magic string, page size, size versus page count,
//! `application_id`, `user_version`), then a read-only SQLite connection that reads
//! `PRAGMA application_id`, `PRAGMA user_version` and runs `PRAGMA quick_check`. A file that is
//! not SQLite, is damaged or truncated, belongs to another program, or has a newer schema is
//! refused with a [`StoreError`] naming it, byte-for-byte untouched, and with nothing left
//! beside it (the empty `-wal`/`-shm` files a read-only SQLite connection creates for a
//! WAL-mode file are removed again if they were not there before). The one exception is a hot
//! rollback journal left by a crash: `open` lets SQLite roll it back (that restores the last
//! committed state) before judging the file.
//!
//! A read-only store ([`Store::open_read_only`]) never writes the file, but while it is open
//! SQLite keeps `-wal`/`-shm` companions beside a WAL-mode file, and may leave an empty pair
//! behind; a read-write store removes them when it closes.
//!
//! # Schema and migrations
//!
//! The file is marked with `PRAGMA application_id` = `0x54425344` ("TBSD"), and
//! `PRAGMA user_version` holds the schema version, [`Store::SCHEMA_VERSION`]. `open` brings an
//! older file forward with an ordered list of migration steps, one transaction each. Version 1:
//!
//! - `matches(id, game, created_ms, header_json, status, outcome_json, entry_count, updated_ms)`
//! - `entries(match_id, seq, at_ms, input_json)`, primary key `(match_id, seq)`, without rowid.
//!
//! Times are milliseconds since the Unix epoch, given by the caller: the store reads no clock.
//!
//! # Example
//!
//! ```
//! use tableside::store::{MatchStatus, Store};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("tableside.sqlite3");
//! let mut store = Store::open(&path)?;
//! let id = store.create_match("duel", r#"{"players":["Aki","Ben"]}"#, 1_000)?;
//! store.append(id, 0, r#"{"Roll":{"sides":6,"value":4}}"#, 1_010)?;
//! store.append(id, 1, r#"{"Undo":null}"#, 1_020)?;
//! assert!(store.append(id, 1, r#"{"Roll":{"sides":6,"value":5}}"#, 1_030).is_err()); // never overwrites
//! store.finish(id, r#"{"winner":"Aki"}"#, 1_040)?;
//! drop(store);
//!
//! let store = Store::open_read_only(&path)?;
//! let log = store.entries(id)?;
//! assert_eq!(log.len(), 2);
//! assert_eq!(log[1].input_json, r#"{"Undo":null}"#);
//! assert_eq!(store.get(id)?.status, MatchStatus::Finished);
//! # Ok(())
//! # }
//! ```

mod club;
mod decks;
mod error;
mod inspect;
pub mod library;
mod schema;

use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, TransactionBehavior, params};
use serde::{Deserialize, Serialize};

pub use decks::RegisterError;
use error::sql;
pub use error::{Saving, StoreError};
use inspect::FileState;
pub use library::LibraryError;

/// The environment variable that names the data folder when no `--data-dir` flag is given.
pub const DATA_DIR_ENV: &str = "TABLESIDE_DATA_DIR";

/// The file name of the match log inside the data folder.
pub const DB_FILE_NAME: &str = "tableside.sqlite3";

/// How long a write waits for another process's write to finish.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The identifier of a match in the store (its SQLite row id; never reused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MatchId(pub i64);

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for MatchId {
    type Err = std::num::ParseIntError;

    /// Parses a match number as typed on the command line (`12`, or `#12`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        s.strip_prefix('#').unwrap_or(s).parse().map(MatchId)
    }
}

/// Whether a match is still being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchStatus {
    /// Being played: its log takes new entries. Stored as `open`.
    Open,
    /// Ended with an outcome: its log takes no entries until it is reopened. Stored as `finished`.
    Finished,
}

impl MatchStatus {
    /// The text stored in the file: `open` or `finished`.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Open => "open",
            MatchStatus::Finished => "finished",
        }
    }

    fn parse(text: &str) -> Option<MatchStatus> {
        match text {
            "open" => Some(MatchStatus::Open),
            "finished" => Some(MatchStatus::Finished),
            _ => None,
        }
    }
}

impl fmt::Display for MatchStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One match as the store knows it: header, status and the size of its log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// Its identifier.
    pub id: MatchId,
    /// The game played (the `cards` game name).
    pub game: String,
    /// When it was created, in ms since the Unix epoch.
    pub created_ms: i64,
    /// The match header as given to [`Store::create_match`] (players, options…), JSON.
    pub header_json: String,
    /// Open or finished.
    pub status: MatchStatus,
    /// The outcome given to [`Store::finish`], JSON; `None` while open.
    pub outcome_json: Option<String>,
    /// How many entries its log holds; the next append must carry this sequence number.
    pub entries: u64,
    /// When it last changed (create, append, finish, reopen), in ms since the Unix epoch.
    pub updated_ms: i64,
}

/// A match whose row in the file cannot be read (a damaged field: invalid UTF-8 text, an
/// impossible status or count). Every other match stays readable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("match {id} is damaged in the match log ({detail})")]
pub struct DamagedMatch {
    /// The match.
    pub id: MatchId,
    /// What is wrong with its row, e.g. "its `game` is not valid UTF-8 text".
    pub detail: String,
}

/// One entry of a match log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredEntry {
    /// Its place in the log, from 0.
    pub seq: u64,
    /// When it was appended, in ms since the Unix epoch.
    pub at_ms: i64,
    /// The input, as JSON text written by the `cards` crate.
    pub input_json: String,
}

/// The match store: one SQLite file holding every match and its log.
///
/// Open it with [`Store::open`] (read-write, creates and upgrades the file) or
/// [`Store::open_read_only`] (for listing, exporting and replaying). Several `Store`s, in one
/// process or several, may share a file: writes are serialised by SQLite and sequence numbers
/// keep a second writer from overwriting the first.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
    read_only: bool,
    /// Why a read-only store is read-only, when it is the media's doing.
    media: Option<ReadOnlyNote>,
    /// Set after a write whose outcome the failing disk left in doubt: no more writes.
    stopped: bool,
}

/// Why a store is read-only when the media is: the data folder sits on a file system mounted
/// read-only (an SD card the kernel remounted read-only after an error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOnlyNote {
    /// The data folder.
    pub folder: PathBuf,
    /// True when a `-wal` file with the newest entries lies beside the log but cannot be read
    /// (its `-shm` index is missing and cannot be made on read-only media): the history shown
    /// may lack the last entries written before the card went read-only.
    pub newest_unread: bool,
}

impl fmt::Display for ReadOnlyNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the data folder {} is on read-only media (an SD card remounted read-only after an \
             error?): the history is shown read-only, and no match can be saved",
            self.folder.display()
        )?;
        if self.newest_unread {
            f.write_str(
                "; the newest entries, still in the log's -wal file, cannot be read until the \
                 card is writable again",
            )?;
        }
        Ok(())
    }
}

impl ReadOnlyNote {
    /// The same in Japanese.
    pub fn ja(&self) -> String {
        let mut text =
            "SDカードが読み取り専用です：対戦を保存できません（履歴は読み取り専用で表示します）"
                .to_owned();
        if self.newest_unread {
            text.push_str(
                "。最新の記録（-walファイル）はカードが書き込めるようになるまで読めません",
            );
        }
        text
    }
}

const MATCH_COLUMNS: &str =
    "id, game, created_ms, header_json, status, outcome_json, entry_count, updated_ms";

impl Store {
    /// The schema version this build writes and reads (`PRAGMA user_version` of the file).
    pub const SCHEMA_VERSION: i64 = schema::MIGRATIONS.len() as i64;

    /// Opens the match log at `path` for reading and writing.
    ///
    /// Creates the file and its parent folders if missing, and migrates a file of an older
    /// schema version forward. Refuses, without writing a byte to it, a file that is not an
    /// SQLite database, is damaged or truncated, belongs to another program, or was written
    /// by a newer Tableside (see the [module documentation](crate::store)).
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let path = path.to_path_buf();
        let folder = folder_of(&path);
        if on_read_only_media(&folder) {
            return Err(StoreError::ReadOnlyMedia { folder });
        }
        create_folder(&folder)?;
        // Judge, create and migrate under the folder lock: a second Tableside starting now
        // waits, then finds a finished file, never a half-made one.
        let _lock = FolderLock::take(&path, true)?;
        let state = inspect::inspect_file(&path)?;
        if state != FileState::Missing {
            match check_read_only(&path) {
                Err(StoreError::NeedsRecovery { .. }) => {
                    recover(&path)?;
                    inspect::inspect_file(&path)?;
                    check_read_only(&path)?;
                }
                other => {
                    other?;
                }
            }
        }

        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(&path, flags).map_err(|e| sql(&path, e))?;
        configure(&conn, &path)?;
        schema::migrate(&mut conn, &path, schema::MIGRATIONS)?;
        library::sync_builtin_on_open(&mut conn, &path)?;
        if state == FileState::Missing {
            sync_dir(&folder);
        }
        Ok(Store {
            conn,
            path,
            read_only: false,
            media: None,
            stopped: false,
        })
    }

    /// Opens the match log at `path` for reading only (`tableside log list/show/export`,
    /// replay, the history screen). Never creates, upgrades or writes the file itself.
    ///
    /// Refuses the same files as [`Store::open`], a missing file ([`StoreError::NotFound`]),
    /// and a file of an older schema version ([`StoreError::NeedsUpgrade`]).
    ///
    /// - A crash-left journal (a hot rollback journal, or a WAL whose index needs rebuilding) is
    ///   recovered first, as a read-write open would, when the folder is writable.
    /// - On read-only media (an SD card remounted read-only), the log is read without writing
    ///   anything beside it: through an existing `-shm` if there is one (SQLite reads it
    ///   read-only, WAL included), otherwise as an immutable file (SQLite's `immutable=1`:
    ///   the main file alone). [`Store::read_only_media`] then says so, and whether the newest
    ///   entries, still in a `-wal` that cannot be read without its `-shm`, were left unread.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let path = path.to_path_buf();
        if inspect::inspect_file(&path)? == FileState::Missing {
            return Err(StoreError::NotFound { path });
        }
        let folder = folder_of(&path);
        let media = on_read_only_media(&folder);
        let lock = FolderLock::take(&path, false)?;
        let (conn, version, note) = match check_read_only(&path) {
            Ok((conn, version)) => {
                let note = media.then(|| ReadOnlyNote {
                    folder: folder.clone(),
                    newest_unread: false,
                });
                (conn, version, note)
            }
            Err(StoreError::NeedsRecovery { .. }) if !media => {
                drop(lock);
                let _lock = FolderLock::take(&path, true)?;
                recover(&path)?;
                inspect::inspect_file(&path)?;
                let (conn, version) = check_read_only(&path)?;
                (conn, version, None)
            }
            Err(e) if media && cannot_open(&e) => {
                if inspect::has_content(&path, "-journal") {
                    // The main file may hold a crashed write's pages; only rolling the
                    // journal back (which needs writing) gives the last committed state.
                    return Err(StoreError::NeedsRecovery { path });
                }
                let conn = inspect::open_immutable_connection(&path)?;
                let version = inspect::validate(&conn, &path)?;
                let note = ReadOnlyNote {
                    folder: folder.clone(),
                    newest_unread: inspect::has_content(&path, "-wal"),
                };
                (conn, version, Some(note))
            }
            Err(e) => return Err(e),
        };
        if version != Store::SCHEMA_VERSION {
            return Err(StoreError::NeedsUpgrade {
                path,
                found: version,
                expected: Store::SCHEMA_VERSION,
            });
        }
        Ok(Store {
            conn,
            path,
            read_only: true,
            media: note,
            stopped: false,
        })
    }

    /// Set when the store was opened read-only because its folder is on read-only media: why
    /// nothing can be saved, for the player to see.
    pub fn read_only_media(&self) -> Option<&ReadOnlyNote> {
        self.media.as_ref()
    }

    /// The file this store reads and writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True for a store opened with [`Store::open_read_only`].
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Starts a new, open match with an empty log and returns its id.
    ///
    /// `header_json` describes the match (players, options…) and must be valid JSON.
    pub fn create_match(
        &mut self,
        game: &str,
        header_json: &str,
        now_ms: i64,
    ) -> Result<MatchId, StoreError> {
        self.insert_match(game, header_json, None, now_ms)
    }

    /// Starts a new, open match played with a catalogue version of the card library (see
    /// [`library`]); the match keeps that version for ever, whatever later happens to its set.
    pub fn create_match_with_catalogue(
        &mut self,
        game: &str,
        header_json: &str,
        catalogue_version: &str,
        now_ms: i64,
    ) -> Result<MatchId, StoreError> {
        self.insert_match(game, header_json, Some(catalogue_version), now_ms)
    }

    fn insert_match(
        &mut self,
        game: &str,
        header_json: &str,
        catalogue_version: Option<&str>,
        now_ms: i64,
    ) -> Result<MatchId, StoreError> {
        self.writable()?;
        check_json(&self.path, "match header", header_json)?;
        let path = &self.path;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(path, e))?;
        tx.prepare_cached(
            "INSERT INTO matches (game, created_ms, header_json, status, entry_count, updated_ms,
                                  catalogue_version)
             VALUES (?1, ?2, ?3, 'open', 0, ?2, ?4)",
        )
        .and_then(|mut stmt| stmt.execute(params![game, now_ms, header_json, catalogue_version]))
        .map_err(|e| sql(path, e))?;
        let id = MatchId(tx.last_insert_rowid());
        let committed = tx.commit();
        self.settle(committed, Saving::NewMatch)?;
        Ok(id)
    }

    /// Appends one input to the log of match `id`; it is on disk when this returns `Ok`.
    ///
    /// `seq` must be exactly the number of entries already logged (0 for the first):
    /// anything else is [`StoreError::OutOfOrder`] and nothing is written, so an entry is
    /// never overwritten and the log has no gaps. A finished match refuses appends
    /// ([`StoreError::MatchFinished`]); [`Store::reopen`] it first. `input_json` must be
    /// valid JSON.
    pub fn append(
        &mut self,
        id: MatchId,
        seq: u64,
        input_json: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.writable()?;
        check_json(&self.path, "input", input_json)?;
        let path = &self.path;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(path, e))?;
        let (status, count) = match_state(&tx, path, id)?;
        if status == MatchStatus::Finished {
            return Err(StoreError::MatchFinished {
                path: path.clone(),
                id,
            });
        }
        let out_of_order = || StoreError::OutOfOrder {
            path: path.clone(),
            id,
            expected: count,
            got: seq,
        };
        if seq != count {
            return Err(out_of_order());
        }
        let seq_value = i64::try_from(seq).map_err(|_| out_of_order())?;
        tx.prepare_cached(
            "INSERT INTO entries (match_id, seq, at_ms, input_json) VALUES (?1, ?2, ?3, ?4)",
        )
        .and_then(|mut stmt| stmt.execute(params![id.0, seq_value, now_ms, input_json]))
        .map_err(|e| sql(path, e))?;
        tx.prepare_cached(
            "UPDATE matches SET entry_count = entry_count + 1, updated_ms = ?2 WHERE id = ?1",
        )
        .and_then(|mut stmt| stmt.execute(params![id.0, now_ms]))
        .map_err(|e| sql(path, e))?;
        let committed = tx.commit();
        self.settle(committed, Saving::Entry { id, seq })
    }

    /// Marks match `id` finished with its outcome (JSON). A finished match refuses appends
    /// and cannot be finished again ([`StoreError::MatchFinished`]) until it is reopened.
    pub fn finish(
        &mut self,
        id: MatchId,
        outcome_json: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.writable()?;
        check_json(&self.path, "outcome", outcome_json)?;
        let path = &self.path;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(path, e))?;
        let (status, _) = match_state(&tx, path, id)?;
        if status == MatchStatus::Finished {
            return Err(StoreError::MatchFinished {
                path: path.clone(),
                id,
            });
        }
        tx.execute(
            "UPDATE matches SET status = 'finished', outcome_json = ?2, updated_ms = ?3
             WHERE id = ?1",
            params![id.0, outcome_json, now_ms],
        )
        .map_err(|e| sql(path, e))?;
        let committed = tx.commit();
        self.settle(committed, Saving::End(id))?;
        // A finished match goes into the main file now, not only into the WAL: damage to the
        // `-wal` file later cannot take it. Passive: it never waits for a reader (a reader's
        // snapshot only stops it short; the next finish or the last close completes it), and a
        // failure changes nothing (the match is durable in the WAL already).
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                row.get::<_, i64>(0)
            });
        Ok(())
    }

    /// Puts a finished match back to open and forgets its outcome (an undo after the end;
    /// the undo itself is then appended as an entry).
    ///
    /// Reopening a match that is already open does nothing and succeeds: after a crash between
    /// the last append and [`Store::finish`], the log may say "ended" while the record still
    /// says open, and an undo must still go through.
    pub fn reopen(&mut self, id: MatchId, now_ms: i64) -> Result<(), StoreError> {
        self.writable()?;
        let path = &self.path;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(path, e))?;
        let (status, _) = match_state(&tx, path, id)?;
        if status == MatchStatus::Open {
            return Ok(());
        }
        tx.execute(
            "UPDATE matches SET status = 'open', outcome_json = NULL, updated_ms = ?2
             WHERE id = ?1",
            params![id.0, now_ms],
        )
        .map_err(|e| sql(path, e))?;
        let committed = tx.commit();
        self.settle(committed, Saving::Reopening(id))
    }

    /// The whole log of match `id`, in sequence order (entry `i` has `seq == i`).
    ///
    /// Read in one snapshot, so a concurrent append is either wholly in or wholly out.
    pub fn entries(&self, id: MatchId) -> Result<Vec<StoredEntry>, StoreError> {
        let mut log = Vec::new();
        self.for_each_entry(id, |seq, at_ms, input_json| {
            log.push(StoredEntry {
                seq,
                at_ms,
                input_json: input_json.to_owned(),
            });
            Ok::<(), StoreError>(())
        })?;
        Ok(log)
    }

    /// Hands every entry of match `id` to `f` in seq order — (seq, at_ms, input JSON) — without
    /// copying the log into memory first (replaying a long match reads it this way). Returns the
    /// number of entries. The same checks as [`Store::entries`]: no gap, and the recorded count.
    pub fn for_each_entry<E: From<StoreError>>(
        &self,
        id: MatchId,
        f: impl FnMut(u64, i64, &str) -> Result<(), E>,
    ) -> Result<u64, E> {
        self.read(|store| store.each_entry(id, f))
    }

    fn each_entry<E: From<StoreError>>(
        &self,
        id: MatchId,
        mut f: impl FnMut(u64, i64, &str) -> Result<(), E>,
    ) -> Result<u64, E> {
        let path = &self.path;
        let (_, count) = match_state(&self.conn, path, id)?;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT seq, at_ms, input_json FROM entries WHERE match_id = ?1 ORDER BY seq",
            )
            .map_err(|e| sql(path, e))?;
        let mut rows = stmt.query([id.0]).map_err(|e| sql(path, e))?;
        let mut seen: u64 = 0;
        while let Some(row) = rows.next().map_err(|e| sql(path, e))? {
            let seq = count_column(row, 0).map_err(|e| sql(path, e))?;
            let at_ms: i64 = row.get(1).map_err(|e| sql(path, e))?;
            let json = row
                .get_ref(2)
                .and_then(|v| v.as_str().map_err(rusqlite::Error::from))
                .map_err(|e| StoreError::Corrupt {
                    path: path.clone(),
                    detail: format!("entry {seq} of match #{id} is damaged ({e})"),
                })?;
            if seq != seen {
                return Err(StoreError::Corrupt {
                    path: path.clone(),
                    detail: format!(
                        "the log of match #{id} jumps from entry {seen} to entry {seq}"
                    ),
                }
                .into());
            }
            f(seq, at_ms, json)?;
            seen += 1;
        }
        if seen != count {
            return Err(StoreError::Corrupt {
                path: path.clone(),
                detail: format!(
                    "match #{id} should have {count} log entries but {seen} were found"
                ),
            }
            .into());
        }
        Ok(seen)
    }

    /// Runs `f` with all its reads in one read transaction: whatever `f` reads of the store
    /// (records, logs, the card library) is one state of the file, even while another
    /// connection or process appends to it. Every read that reports on a match (export, show,
    /// replay, the history screen) goes through here, so a match being written is seen as it
    /// was at one commit: its record and its entries always agree. Inside a `read`, a nested
    /// `read` joins the outer one.
    ///
    /// A snapshot keeps the WAL from being checkpointed past it while it lasts: keep `f` short
    /// (one match), never hold it across a user's think time.
    pub fn read<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, E>,
    ) -> Result<T, E> {
        if !self.conn.is_autocommit() {
            return f(self);
        }
        let tx = self
            .conn
            .unchecked_transaction()
            .map_err(|e| sql(&self.path, e))?;
        let out = f(self)?;
        // Ending a read transaction cannot lose anything; a failure here is still reported.
        tx.commit().map_err(|e| sql(&self.path, e))?;
        Ok(out)
    }

    /// The record of match `id`.
    pub fn get(&self, id: MatchId) -> Result<MatchRecord, StoreError> {
        let sql_text = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?1");
        self.conn
            .prepare_cached(&sql_text)
            .and_then(|mut stmt| {
                stmt.query_row([id.0], |row| {
                    Ok(match_record(row).map_err(|e| DamagedMatch {
                        id,
                        detail: damage(&e),
                    }))
                })
                .optional()
            })
            .map_err(|e| sql(&self.path, e))?
            .ok_or_else(|| StoreError::UnknownMatch {
                path: self.path.clone(),
                id,
            })?
            .map_err(|damaged| StoreError::Damaged {
                path: self.path.clone(),
                damaged,
            })
    }

    /// Every readable match, newest first (by creation time, then by id). A match whose row is
    /// damaged is left out here; [`Store::list`] names it.
    pub fn matches(&self) -> Result<Vec<MatchRecord>, StoreError> {
        Ok(self.list()?.into_iter().filter_map(Result::ok).collect())
    }

    /// Every match, newest first (by creation time, then by id): its record, or, for a row
    /// that cannot be read (invalid text, an impossible value), which match it is and what is
    /// wrong. One damaged row never hides the others.
    pub fn list(&self) -> Result<Vec<Result<MatchRecord, DamagedMatch>>, StoreError> {
        self.select_matches("")
    }

    /// The open matches (to offer "resume"), newest first (by creation time, then by id). A
    /// damaged row is left out (it cannot be resumed); [`Store::list`] names it.
    pub fn unfinished(&self) -> Result<Vec<MatchRecord>, StoreError> {
        Ok(self
            .select_matches("WHERE status = 'open'")?
            .into_iter()
            .filter_map(Result::ok)
            .collect())
    }

    fn select_matches(
        &self,
        filter: &str,
    ) -> Result<Vec<Result<MatchRecord, DamagedMatch>>, StoreError> {
        let sql_text = format!(
            "SELECT {MATCH_COLUMNS} FROM matches {filter} ORDER BY created_ms DESC, id DESC"
        );
        self.conn
            .prepare_cached(&sql_text)
            .and_then(|mut stmt| {
                stmt.query_map([], |row| {
                    let id = MatchId(row.get(0)?);
                    Ok(match_record(row).map_err(|e| DamagedMatch {
                        id,
                        detail: damage(&e),
                    }))
                })?
                .collect()
            })
            .map_err(|e| sql(&self.path, e))
    }

    /// Ends a write: `committed` is what its `COMMIT` returned. On a disk failure (an I/O error
    /// or a full disk while the commit was written or fsynced), makes the outcome definite (see
    /// "When the disk fails" in the module documentation).
    fn settle(&mut self, committed: rusqlite::Result<()>, what: Saving) -> Result<(), StoreError> {
        let cause = match committed {
            Ok(()) => return Ok(()),
            Err(cause) => cause,
        };
        if !matches!(
            cause.sqlite_error_code(),
            Some(rusqlite::ErrorCode::SystemIoFailure | rusqlite::ErrorCode::DiskFull)
        ) {
            return Err(sql(&self.path, cause));
        }
        let cause_text = error::capped(&cause.to_string());
        if self.overwrite_failed_commit().is_ok() {
            Err(StoreError::NotSaved {
                path: self.path.clone(),
                what,
                cause: cause_text,
            })
        } else {
            self.stopped = true;
            Err(StoreError::InDoubt {
                path: self.path.clone(),
                what,
                cause: cause_text,
            })
        }
    }

    /// After a failed commit: commits a write that changes nothing of meaning (it sets
    /// `user_version` to the value it has, which still rewrites the file's first page), so
    /// that the frames the failed commit may have left whole in the `-wal` file are
    /// overwritten (SQLite's next commit starts where the failed one did, and every frame's
    /// checksum chains to the one before it) and can never be recovered after a restart.
    fn overwrite_failed_commit(&mut self) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version = schema::user_version(&tx)?;
        tx.pragma_update(None, "user_version", version)?;
        tx.commit()
    }

    fn writable(&self) -> Result<(), StoreError> {
        if let Some(note) = &self.media {
            return Err(StoreError::ReadOnlyMedia {
                folder: note.folder.clone(),
            });
        }
        if self.stopped {
            return Err(StoreError::Stopped {
                path: self.path.clone(),
            });
        }
        if self.read_only {
            return Err(StoreError::ReadOnly {
                path: self.path.clone(),
            });
        }
        Ok(())
    }
}

/// The folder holding the log file (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// Whether `folder` (or, if it does not exist yet, its nearest existing ancestor) is on a file
/// system mounted read-only. `access(W_OK)` answers `EROFS` there, even for root, whom file
/// permissions never stop.
fn on_read_only_media(folder: &Path) -> bool {
    #[cfg(unix)]
    {
        let existing = folder.ancestors().find(|p| p.exists());
        existing.is_some_and(|dir| {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            rustix::fs::access(dir, rustix::fs::Access::WRITE_OK) == Err(rustix::io::Errno::ROFS)
        })
    }
    #[cfg(not(unix))]
    {
        let _ = folder;
        false
    }
}

/// Creates the data folder and any missing parents, and syncs the folder above each one it
/// created, so the new folder's name survives a power cut (a strict-POSIX file system may
/// otherwise lose the folder, and the first match with it).
fn create_folder(folder: &Path) -> Result<(), StoreError> {
    let missing: Vec<&Path> = folder
        .ancestors()
        .take_while(|p| !p.as_os_str().is_empty() && !p.exists())
        .collect();
    fs::create_dir_all(folder).map_err(|cause| {
        if cause.kind() == std::io::ErrorKind::ReadOnlyFilesystem {
            StoreError::ReadOnlyMedia {
                folder: folder.to_path_buf(),
            }
        } else {
            StoreError::CreateDir {
                path: folder.to_path_buf(),
                cause,
            }
        }
    })?;
    // Deepest first: each created folder's entry lives in its parent.
    for created in missing {
        sync_dir(&folder_of(created));
    }
    Ok(())
}

/// True for the errors that mean SQLite could not open the file at all (on read-only media:
/// the `-shm` it needs could not be created, or a WAL needs recovery that cannot be written).
fn cannot_open(e: &StoreError) -> bool {
    match e {
        StoreError::NeedsRecovery { .. } | StoreError::ReadOnly { .. } => true,
        StoreError::Sqlite { cause, .. } => matches!(
            cause.sqlite_error_code(),
            Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
        ),
        _ => false,
    }
}

/// A lock on the data folder, held while a file is judged, created or migrated, so that two
/// Tableside processes starting at once never see each other's half-made file: the second
/// waits for the first (at most [`BUSY_TIMEOUT`]) and then finds a finished log. Read-only
/// opens take it shared, read-write opens exclusive; it is released when dropped (and by the
/// kernel when a process dies), and nobody holds it while a match is played.
///
/// Best effort where the folder cannot be opened or locked (not Unix, a file system without
/// locks): the one-transaction checks still keep a reader from mixing two states of the file.
struct FolderLock {
    _handle: Option<fs::File>,
}

impl FolderLock {
    fn take(path: &Path, exclusive: bool) -> Result<FolderLock, StoreError> {
        #[cfg(unix)]
        if let Ok(handle) = fs::File::open(folder_of(path)) {
            let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
            loop {
                let tried = if exclusive {
                    handle.try_lock()
                } else {
                    handle.try_lock_shared()
                };
                match tried {
                    Ok(()) => {
                        return Ok(FolderLock {
                            _handle: Some(handle),
                        });
                    }
                    Err(fs::TryLockError::WouldBlock) => {
                        if std::time::Instant::now() >= deadline {
                            return Err(StoreError::Locked {
                                path: path.to_path_buf(),
                            });
                        }
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    // The file system cannot lock: go on without.
                    Err(fs::TryLockError::Error(_)) => break,
                }
            }
        }
        #[cfg(not(unix))]
        let _ = (path, exclusive);
        Ok(FolderLock { _handle: None })
    }
}

/// Opens `path` read-only and validates it; returns the connection and the schema version.
///
/// If the file is refused, the empty `-wal` and `-shm` files SQLite may have created beside it
/// for this check are removed again (see [`inspect::Companions`]).
fn check_read_only(path: &Path) -> Result<(Connection, i64), StoreError> {
    let companions = inspect::Companions::note(path);
    let checked = inspect::open_read_only_connection(path).and_then(|conn| {
        let version = inspect::validate(&conn, path)?;
        Ok((conn, version))
    });
    // On failure the connection is already closed here.
    if checked.is_err() {
        companions.remove_if_created();
    }
    checked
}

/// Lets SQLite roll back a hot journal left by a crash (a read-write connection does it on
/// its first read).
fn recover(path: &Path) -> Result<(), StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| sql(path, e))?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| sql(path, e))?;
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| {
        row.get::<_, i64>(0)
    })
    .map_err(|e| sql(path, e))?;
    Ok(())
}

/// Sets the per-connection pragmas described in the module documentation.
fn configure(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| sql(path, e))?;
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .map_err(|e| sql(path, e))?;
    // Where the file system cannot do WAL (no shared memory), SQLite keeps a rollback
    // journal, which with synchronous = FULL is just as durable, only slower.
    if !["wal", "delete", "truncate", "persist"]
        .iter()
        .any(|m| mode.eq_ignore_ascii_case(m))
    {
        return Err(StoreError::NotDurable {
            path: path.to_path_buf(),
            mode,
        });
    }
    for (pragma, value) in [
        ("synchronous", "FULL"),
        ("fullfsync", "ON"),
        ("checkpoint_fullfsync", "ON"),
        ("foreign_keys", "ON"),
    ] {
        conn.pragma_update(None, pragma, value)
            .map_err(|e| sql(path, e))?;
    }
    Ok(())
}

/// Makes a newly created file's name durable by syncing its folder. Best effort, like SQLite's
/// own folder sync: some file systems cannot sync a folder, and the data itself is synced anyway.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Refuses a text that is not valid JSON, before anything is written.
fn check_json(path: &Path, what: &'static str, text: &str) -> Result<(), StoreError> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(drop)
        .map_err(|cause| StoreError::InvalidJson {
            path: path.to_path_buf(),
            what,
            cause,
        })
}

/// Reads the status and entry count of match `id` (inside the caller's transaction).
fn match_state(
    conn: &Connection,
    path: &Path,
    id: MatchId,
) -> Result<(MatchStatus, u64), StoreError> {
    conn.prepare_cached("SELECT status, entry_count FROM matches WHERE id = ?1")
        .and_then(|mut stmt| {
            stmt.query_row([id.0], |row| {
                Ok((status_column(row, 0)?, count_column(row, 1)?))
            })
            .optional()
        })
        .map_err(|e| sql(path, e))?
        .ok_or_else(|| StoreError::UnknownMatch {
            path: path.to_path_buf(),
            id,
        })
}

fn status_column(row: &Row<'_>, index: usize) -> rusqlite::Result<MatchStatus> {
    let text: String = row.get(index)?;
    MatchStatus::parse(&text).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            index,
            rusqlite::types::Type::Text,
            format!("unknown match status {text:?}").into(),
        )
    })
}

/// Reads a count or sequence number, stored as a non-negative SQLite integer.
fn count_column(row: &Row<'_>, index: usize) -> rusqlite::Result<u64> {
    let value: i64 = row.get(index)?;
    u64::try_from(value).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(index, value))
}

/// What is wrong with a row that could not be read, naming the column.
fn damage(e: &rusqlite::Error) -> String {
    let column = |index: usize| {
        MATCH_COLUMNS
            .split(", ")
            .nth(index)
            .unwrap_or("a field")
            .to_owned()
    };
    match e {
        rusqlite::Error::Utf8Error(index, _) => {
            format!("its `{}` is not valid UTF-8 text", column(*index))
        }
        rusqlite::Error::FromSqlConversionFailure(index, _, cause) => format!(
            "its `{}` cannot be read: {}",
            column(*index),
            error::capped(&cause.to_string())
        ),
        rusqlite::Error::InvalidColumnType(index, _, found) => {
            format!("its `{}` holds a value of type {found}", column(*index))
        }
        rusqlite::Error::IntegralValueOutOfRange(index, value) => {
            format!(
                "its `{}` holds the impossible value {value}",
                column(*index)
            )
        }
        other => error::capped(&other.to_string()),
    }
}

fn match_record(row: &Row<'_>) -> rusqlite::Result<MatchRecord> {
    Ok(MatchRecord {
        id: MatchId(row.get(0)?),
        game: row.get(1)?,
        created_ms: row.get(2)?,
        header_json: row.get(3)?,
        status: status_column(row, 4)?,
        outcome_json: row.get(5)?,
        entries: count_column(row, 6)?,
        updated_ms: row.get(7)?,
    })
}

/// Where the match log lives: `<data folder>/tableside.sqlite3`.
///
/// The data folder is, first that applies: the `--data-dir` flag (`flag`), the
/// `TABLESIDE_DATA_DIR` environment variable ([`DATA_DIR_ENV`]), the platform data folder
/// (`directories::ProjectDirs::from("", "", "tableside")`, e.g. `~/.local/share/tableside` on
/// Linux). An empty flag or variable counts as absent. The folder is not created here;
/// [`Store::open`] does that.
pub fn default_db_path(flag: Option<&Path>) -> Result<PathBuf, StoreError> {
    let env = std::env::var_os(DATA_DIR_ENV);
    resolve_db_path(flag, env.as_deref(), || {
        directories::ProjectDirs::from("", "", "tableside")
            .map(|dirs| dirs.data_dir().to_path_buf())
    })
}

fn resolve_db_path(
    flag: Option<&Path>,
    env: Option<&OsStr>,
    platform: impl FnOnce() -> Option<PathBuf>,
) -> Result<PathBuf, StoreError> {
    let dir = match (flag, env) {
        (Some(flag), _) if !flag.as_os_str().is_empty() => flag.to_path_buf(),
        (_, Some(env)) if !env.is_empty() => PathBuf::from(env),
        _ => platform().ok_or(StoreError::NoDataDir)?,
    };
    Ok(dir.join(DB_FILE_NAME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_dir_flag_wins_over_env_which_wins_over_platform() {
        let platform = || Some(PathBuf::from("/platform"));
        let flag = Path::new("/flag");
        let env = OsStr::new("/env");
        assert_eq!(
            resolve_db_path(Some(flag), Some(env), platform).unwrap(),
            Path::new("/flag/tableside.sqlite3")
        );
        assert_eq!(
            resolve_db_path(None, Some(env), platform).unwrap(),
            Path::new("/env/tableside.sqlite3")
        );
        assert_eq!(
            resolve_db_path(None, None, platform).unwrap(),
            Path::new("/platform/tableside.sqlite3")
        );
        // Empty values count as absent.
        assert_eq!(
            resolve_db_path(Some(Path::new("")), Some(OsStr::new("")), platform).unwrap(),
            Path::new("/platform/tableside.sqlite3")
        );
        let err = resolve_db_path(None, None, || None).unwrap_err();
        assert!(matches!(err, StoreError::NoDataDir), "{err:?}");
    }

    #[test]
    fn match_id_displays_and_parses_as_a_plain_number() {
        assert_eq!(MatchId(42).to_string(), "42");
        assert_eq!("42".parse::<MatchId>().unwrap(), MatchId(42));
        assert_eq!(" #7 ".parse::<MatchId>().unwrap(), MatchId(7));
        assert!("seven".parse::<MatchId>().is_err());
        assert_eq!(serde_json::to_string(&MatchId(3)).unwrap(), "3");
        assert_eq!(
            serde_json::to_string(&MatchStatus::Finished).unwrap(),
            "\"finished\""
        );
    }

    #[test]
    fn status_text_round_trips() {
        for status in [MatchStatus::Open, MatchStatus::Finished] {
            assert_eq!(MatchStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(MatchStatus::parse("Open"), None);
    }

    #[test]
    fn a_new_file_gets_the_durable_pragmas() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("a/b/tableside.sqlite3")).unwrap();
        let text = |pragma: &str| -> String {
            store
                .conn
                .pragma_query_value(None, pragma, |row| row.get::<_, rusqlite::types::Value>(0))
                .map(|v| format!("{v:?}"))
                .unwrap()
        };
        assert_eq!(text("journal_mode"), "Text(\"wal\")");
        assert_eq!(text("synchronous"), "Integer(2)"); // FULL
        assert_eq!(text("foreign_keys"), "Integer(1)");
        assert_eq!(
            text("application_id"),
            format!("Integer({})", schema::APPLICATION_ID)
        );
        assert_eq!(
            text("user_version"),
            format!("Integer({})", Store::SCHEMA_VERSION)
        );
    }
}
