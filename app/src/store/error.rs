//! [`StoreError`]: everything that can go wrong with the match log, in words a player or an
//! admin can act on.

use std::io;
use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;
use rusqlite::ffi;

use super::MatchId;

/// Why the match store could not do what was asked.
///
/// Every message names the file (or folder) concerned and says what happened to it. When a file
/// is refused at opening, the message says so: Tableside never "repairs" a file it does not
/// recognise. The underlying cause (I/O or SQLite error) is part of the message and kept in a
/// `cause` field for programs; it is deliberately not chained as `source()`, so a report printed
/// with its causes does not repeat it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// No folder for the match log could be determined: no `--data-dir` flag, no
    /// `TABLESIDE_DATA_DIR` variable, and the platform knows no home directory.
    #[error(
        "cannot find a folder for the match log: no home directory is known; \
         pass --data-dir or set TABLESIDE_DATA_DIR"
    )]
    NoDataDir,

    /// The folder that should hold the match log could not be created.
    #[error("cannot create the folder {} for the match log: {cause}", path.display())]
    CreateDir {
        /// The folder that could not be created.
        path: PathBuf,
        /// What the operating system said.
        cause: io::Error,
    },

    /// The match log file could not be read (permissions, disk error…).
    #[error("cannot read the match log {}: {cause}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        cause: io::Error,
    },

    /// A read-only open found no file at the given path (nothing has been logged there yet).
    #[error("there is no match log at {} (no match has been played with this data folder)", path.display())]
    NotFound {
        /// Where the file was looked for.
        path: PathBuf,
    },

    /// The path names a folder, not a file.
    #[error("{} is a folder, not a match log file", path.display())]
    IsADirectory {
        /// The path.
        path: PathBuf,
    },

    /// The file is not an SQLite database at all (wrong header). It was left untouched.
    #[error(
        "{} is not a Tableside match log: it is not an SQLite database. \
         Tableside left it untouched; move it away or choose another data folder",
        path.display()
    )]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },

    /// The file looks like an SQLite database but is damaged (truncated, a page overwritten…).
    /// It was left untouched.
    #[error(
        "the match log {} is damaged ({detail}). Tableside left it untouched; restore it from a \
         backup, or move it away to start a new log",
        path.display()
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, as found by the header check or by SQLite's `quick_check`.
        detail: String,
    },

    /// The file is an SQLite database of another program (different `application_id`, or
    /// tables but no Tableside marks). It was left untouched.
    #[error(
        "{} is an SQLite database of another program (application id {application_id:#010x}), \
         not a Tableside match log. Tableside left it untouched",
        path.display()
    )]
    ForeignDatabase {
        /// The file.
        path: PathBuf,
        /// The `PRAGMA application_id` found in the file (0 when it has none).
        application_id: i32,
    },

    /// The file was written by a newer Tableside with a schema this version does not know.
    /// It was left untouched.
    #[error(
        "the match log {} was written by a newer Tableside (schema version {found}; this version \
         understands up to {supported}). Update Tableside; the file was left untouched",
        path.display()
    )]
    TooNew {
        /// The file.
        path: PathBuf,
        /// The schema version in the file.
        found: i64,
        /// The newest schema version this build knows ([`Store::SCHEMA_VERSION`](super::Store::SCHEMA_VERSION)).
        supported: i64,
    },

    /// A read-only open found an older schema, which only a read-write open may upgrade.
    #[error(
        "the match log {} has schema version {found}, older than version {expected} that this \
         Tableside reads; open it once with Tableside (not read-only) to upgrade it",
        path.display()
    )]
    NeedsUpgrade {
        /// The file.
        path: PathBuf,
        /// The schema version in the file.
        found: i64,
        /// The schema version this build reads.
        expected: i64,
    },

    /// The file was left in the middle of a write (a crash) and cannot be recovered here,
    /// because recovering means writing and the media is read-only. (On writable media every
    /// open, read-only ones included, recovers it itself.)
    #[error(
        "the match log {} was left mid-write by a crash, and recovering it needs writing, \
         which this read-only media does not allow: make the SD card (or disk) writable again \
         and open it once more; nothing committed is lost",
        path.display()
    )]
    NeedsRecovery {
        /// The file.
        path: PathBuf,
    },

    /// A schema migration step failed; its transaction was rolled back, so the file keeps its
    /// previous schema version.
    #[error(
        "could not upgrade the match log {} to schema version {to_version}: {cause}; \
         the file keeps its previous version",
        path.display()
    )]
    Migration {
        /// The file.
        path: PathBuf,
        /// The version the failed step would have reached.
        to_version: i64,
        /// What SQLite said.
        cause: rusqlite::Error,
    },

    /// Another program (usually another Tableside) held the file locked for longer than the
    /// busy timeout. Nothing was written.
    #[error(
        "the match log {} is busy: another program is writing to it. Nothing was written; try again",
        path.display()
    )]
    Locked {
        /// The file.
        path: PathBuf,
    },

    /// A write was attempted on a store opened with [`Store::open_read_only`](super::Store::open_read_only),
    /// or the file or its folder is not writable.
    #[error("the match log {} is open read-only: nothing can be written to it", path.display())]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },

    /// No match with this id exists in the file.
    #[error("there is no match #{id} in the match log {}", path.display())]
    UnknownMatch {
        /// The file.
        path: PathBuf,
        /// The id asked for.
        id: MatchId,
    },

    /// An append did not carry the next sequence number. Entries are never overwritten and no
    /// gap is allowed; nothing was written.
    #[error(
        "entry {got} of match #{id} is out of order: its log holds {expected} entries, so the \
         next one must be number {expected}. Nothing was written to {}",
        path.display()
    )]
    OutOfOrder {
        /// The file.
        path: PathBuf,
        /// The match.
        id: MatchId,
        /// The sequence number the next entry must have (the number of entries so far).
        expected: u64,
        /// The sequence number that was given.
        got: u64,
    },

    /// The match is finished: its log takes no more entries and it cannot be finished again
    /// until it is reopened ([`Store::reopen`](super::Store::reopen)).
    #[error(
        "match #{id} is finished; reopen it before changing it. Nothing was written to {}",
        path.display()
    )]
    MatchFinished {
        /// The file.
        path: PathBuf,
        /// The match.
        id: MatchId,
    },

    /// A text that must be JSON (an input, a match header, an outcome) is not valid JSON.
    #[error("the {what} to store in {} is not valid JSON ({cause}); nothing was written", path.display())]
    InvalidJson {
        /// The file.
        path: PathBuf,
        /// Which text: "input", "match header" or "outcome".
        what: &'static str,
        /// What the JSON parser said.
        cause: serde_json::Error,
    },

    /// SQLite could not give the file a durable journal (WAL or a rollback journal) on this
    /// file system, so appends could not be made durable. Nothing was written.
    #[error(
        "the match log {} cannot be kept safely on this file system: SQLite could only use          journal mode {mode}; put the data folder on a local disk",
        path.display()
    )]
    NotDurable {
        /// The file.
        path: PathBuf,
        /// The journal mode SQLite reported.
        mode: String,
    },

    /// One match's row cannot be read (a damaged field); every other match stays readable.
    #[error("{damaged}; every other match in {} stays readable", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// Which match, and what is wrong with it.
        damaged: super::DamagedMatch,
    },

    /// The data folder is on a file system mounted read-only: usually an SD card the kernel
    /// remounted read-only after an error (the common Raspberry Pi failure). Nothing can be
    /// saved; the history can still be read ([`Store::open_read_only`](super::Store::open_read_only)).
    #[error(
        "the SD card (or disk) holding {} is read-only: matches cannot be saved. The history can \
         still be read; check the card (it may be failing) and make it writable again to play",
        folder.display()
    )]
    ReadOnlyMedia {
        /// The data folder.
        folder: PathBuf,
    },

    /// The disk failed while a write was being made durable (fsync or write error), and
    /// Tableside undid it: a later successful write overwrote what the failed one had left in
    /// the log's `-wal` file, so it can never come back after a restart. Nothing changed.
    #[error(
        "{what} was not saved: the disk reported an error while saving it ({cause}), and \
         Tableside undid it, so nothing changed; enter it again. Check the disk holding {}",
        path.display()
    )]
    NotSaved {
        /// The file.
        path: PathBuf,
        /// What was being saved.
        what: Saving,
        /// What SQLite said (capped).
        cause: String,
    },

    /// The disk failed while a write was being made durable and kept failing when Tableside
    /// tried to undo it: whether the write survives a restart depends on the disk. Tableside
    /// writes nothing more through this store ([`StoreError::Stopped`] after this).
    #[error(
        "the disk keeps failing: {what} may have been saved or not ({cause}). Tableside writes \
         nothing more to {}; check the disk and restart Tableside: the match resumes from what \
         the disk holds, so look at its last entry before entering it again",
        path.display()
    )]
    InDoubt {
        /// The file.
        path: PathBuf,
        /// What was being saved.
        what: Saving,
        /// What SQLite said (capped).
        cause: String,
    },

    /// A write after [`StoreError::InDoubt`]: this store has stopped writing.
    #[error(
        "Tableside stopped writing to {} after a disk failure: nothing was written; check the \
         disk and restart Tableside",
        path.display()
    )]
    Stopped {
        /// The file.
        path: PathBuf,
    },

    /// Any other SQLite failure (disk full, I/O error…).
    #[error("the match log {} could not be used: {cause}", path.display())]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        cause: rusqlite::Error,
    },
}

/// What a write that failed on a failing disk was saving, for its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saving {
    /// A new match.
    NewMatch,
    /// Entry `seq` of match `id`.
    Entry {
        /// The match.
        id: MatchId,
        /// The entry's sequence number.
        seq: u64,
    },
    /// The end (outcome) of match `id`.
    End(MatchId),
    /// Match `id` being opened again (an undo after its end).
    Reopening(MatchId),
    /// A change to the card library or the registered decks.
    Library,
}

impl Saving {
    /// The Japanese words for it.
    pub fn ja(self) -> String {
        match self {
            Saving::NewMatch => "新しい対戦".to_owned(),
            Saving::Entry { id, seq } => format!("対戦#{id}の記録{seq}番"),
            Saving::End(id) => format!("対戦#{id}の終了"),
            Saving::Reopening(id) => format!("対戦#{id}の再開"),
            Saving::Library => "カード一覧・デッキの変更".to_owned(),
        }
    }
}

impl std::fmt::Display for Saving {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Saving::NewMatch => f.write_str("the new match"),
            Saving::Entry { id, seq } => write!(f, "entry {seq} of match #{id}"),
            Saving::End(id) => write!(f, "the end of match #{id}"),
            Saving::Reopening(id) => write!(f, "the reopening of match #{id}"),
            Saving::Library => f.write_str("the change to the card library or decks"),
        }
    }
}

/// The most characters of any outside text (a damaged value, SQLite's or the system's words)
/// an error message quotes.
pub(crate) const ECHO_LIMIT: usize = 200;

/// `text`, cut to [`ECHO_LIMIT`] characters (with how much was left out): an error never
/// echoes megabytes of a damaged value back at the player.
pub(crate) fn capped(text: &str) -> String {
    match text.char_indices().nth(ECHO_LIMIT) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} more bytes)", &text[..cut], text.len() - cut),
    }
}

impl StoreError {
    /// The message in Japanese for the errors a player meets at the table (read-only card,
    /// failing disk, a busy log); `None` for the others, which name files and are for whoever
    /// looks after the machine (the English message is shown then).
    pub fn ja(&self) -> Option<String> {
        Some(match self {
            StoreError::ReadOnlyMedia { .. } => {
                "SDカード（ディスク）が読み取り専用です：対戦を保存できません。\
                 履歴は読めます。カードを確認し、書き込めるようにしてから遊んでください"
                    .to_owned()
            }
            StoreError::NotSaved { what, .. } => format!(
                "{}は保存されませんでした：保存中にディスクがエラーを返したため取り消しました。\
                 何も変わっていません。もう一度入力してください（ディスクを確認してください）",
                what.ja()
            ),
            StoreError::InDoubt { what, .. } => format!(
                "ディスクのエラーが続いています：{}が保存されたかどうか分かりません。\
                 これ以上は書き込みません。ディスクを確認して再起動し、\
                 最後の記録を確かめてから入力し直してください",
                what.ja()
            ),
            StoreError::Stopped { .. } => "ディスクのエラーのため書き込みを止めました：\
                 何も保存されていません。ディスクを確認して再起動してください"
                .to_owned(),
            StoreError::Locked { .. } => {
                "対戦記録が他のプログラムに使われています：何も保存されていません。もう一度試してください"
                    .to_owned()
            }
            _ => return None,
        })
    }

    /// The message in the player's language: Japanese where [`StoreError::ja`] has it.
    pub fn in_language(&self, japanese: bool) -> String {
        match self.ja() {
            Some(ja) if japanese => ja,
            _ => self.to_string(),
        }
    }
}

/// Turns an SQLite error into the most specific [`StoreError`].
pub(super) fn sql(path: &Path, cause: rusqlite::Error) -> StoreError {
    let path = path.to_path_buf();
    let Some(failure) = cause.sqlite_error() else {
        return StoreError::Sqlite { path, cause };
    };
    match failure.extended_code {
        // A hot rollback journal, or a WAL that needs recovery, and no write access to fix it.
        ffi::SQLITE_READONLY_ROLLBACK | ffi::SQLITE_READONLY_RECOVERY => {
            return StoreError::NeedsRecovery { path };
        }
        _ => {}
    }
    match failure.code {
        ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => StoreError::Locked { path },
        ErrorCode::ReadOnly => StoreError::ReadOnly { path },
        ErrorCode::NotADatabase => StoreError::NotADatabase { path },
        ErrorCode::DatabaseCorrupt => StoreError::Corrupt {
            path,
            detail: cause.to_string(),
        },
        _ => StoreError::Sqlite { path, cause },
    }
}
