//! The schema and its migrations.
//!
//! `PRAGMA user_version` holds the schema version of a file; version 0 is an empty file.
//! [`MIGRATIONS`]`[n]` is the SQL that takes a file from version `n` to version `n + 1`. Each step
//! runs in its own `BEGIN IMMEDIATE` transaction together with the `user_version` bump (and, for
//! the first step, the `application_id` mark), so a failed step leaves the file exactly at its
//! previous version. Steps are never edited once released: a change is a new step appended to
//! the list.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use super::error::{StoreError, sql};

/// `PRAGMA application_id` of a Tableside match log: the ASCII bytes `TBSD`.
pub(super) const APPLICATION_ID: i32 = 0x5442_5344;

/// Schema version 1: matches, their append-only logs, and the guards that keep them so.
const V1: &str = "
CREATE TABLE matches (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game         TEXT    NOT NULL,
    created_ms   INTEGER NOT NULL,
    header_json  TEXT    NOT NULL CHECK (json_valid(header_json)),
    status       TEXT    NOT NULL CHECK (status IN ('open', 'finished')),
    outcome_json TEXT             CHECK (outcome_json IS NULL OR json_valid(outcome_json)),
    entry_count  INTEGER NOT NULL DEFAULT 0 CHECK (entry_count >= 0),
    updated_ms   INTEGER NOT NULL,
    CHECK ((status = 'finished') = (outcome_json IS NOT NULL))
) STRICT;

CREATE INDEX matches_newest ON matches (created_ms DESC, id DESC);

CREATE TABLE entries (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    at_ms      INTEGER NOT NULL,
    input_json TEXT    NOT NULL CHECK (json_valid(input_json)),
    PRIMARY KEY (match_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER entries_append_in_order BEFORE INSERT ON entries
WHEN NEW.seq IS NOT (SELECT entry_count FROM matches WHERE id = NEW.match_id)
BEGIN
    SELECT RAISE(ABORT, 'a match log entry must carry the next sequence number');
END;

CREATE TRIGGER entries_open_match_only BEFORE INSERT ON entries
WHEN (SELECT status FROM matches WHERE id = NEW.match_id) IS NOT 'open'
BEGIN
    SELECT RAISE(ABORT, 'a finished match takes no more log entries');
END;

CREATE TRIGGER entries_never_updated BEFORE UPDATE ON entries
BEGIN
    SELECT RAISE(ABORT, 'match log entries are never changed: append a correction instead');
END;

CREATE TRIGGER entries_never_deleted BEFORE DELETE ON entries
BEGIN
    SELECT RAISE(ABORT, 'match log entries are never deleted: append an undo instead');
END;

CREATE TRIGGER matches_never_deleted BEFORE DELETE ON matches
BEGIN
    SELECT RAISE(ABORT, 'matches are never deleted from the match log');
END;
";

/// One migration step: its SQL, then (in the same transaction) what SQL alone cannot do.
#[derive(Clone, Copy)]
pub(super) struct Step {
    /// The SQL of the step.
    pub(super) sql: &'static str,
    /// Runs after the SQL, inside the step's transaction.
    pub(super) then: Option<fn(&Connection) -> rusqlite::Result<()>>,
}

impl Step {
    /// A step that is SQL only.
    pub(super) const fn sql(sql: &'static str) -> Step {
        Step { sql, then: None }
    }
}

/// The migration steps of the released schema, in order: step `n` takes version `n` to `n + 1`.
pub(super) const MIGRATIONS: &[Step] = &[
    Step::sql(V1),
    Step::sql(V2),
    Step {
        sql: V3,
        then: Some(super::library::backfill_v3),
    },
];

/// Schema version 2: registered decks, each physical copy bound to one deck (and so one owner).
const V2: &str = "
CREATE TABLE decks (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game          TEXT    NOT NULL,
    owner         TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    deck_json     TEXT    NOT NULL CHECK (json_valid(deck_json)),
    registered_ms INTEGER NOT NULL,
    UNIQUE (game, owner, name)
) STRICT;

CREATE TABLE deck_copies (
    game    TEXT    NOT NULL,
    card    TEXT    NOT NULL,
    copy    INTEGER NOT NULL CHECK (copy >= 1),
    deck_id INTEGER NOT NULL REFERENCES decks (id),
    PRIMARY KEY (game, card, copy)
) STRICT, WITHOUT ROWID;

CREATE INDEX deck_copies_by_deck ON deck_copies (deck_id);
";

/// Schema version 3: the card library. Every version of every set is kept by the SHA-256 of its
/// TOML text, and each match names the version it was played with, so its replay never changes.
/// The migration's Rust step stores the embedded demo sets and points every earlier match at the
/// demo version of its set (the only sets an earlier Tableside could play).
const V3: &str = "
CREATE TABLE catalogue_versions (
    hash      TEXT    NOT NULL PRIMARY KEY CHECK (length(hash) = 64),
    game      TEXT    NOT NULL,
    set_id    TEXT    NOT NULL,
    number    INTEGER NOT NULL CHECK (number >= 1),
    name_en   TEXT    NOT NULL,
    name_ja   TEXT    NOT NULL,
    demo      INTEGER NOT NULL CHECK (demo IN (0, 1)),
    builtin   INTEGER NOT NULL CHECK (builtin IN (0, 1)),
    cards     INTEGER NOT NULL CHECK (cards >= 0),
    decks     INTEGER NOT NULL CHECK (decks >= 0),
    toml_text TEXT    NOT NULL,
    source    TEXT    NOT NULL,
    added_ms  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE UNIQUE INDEX catalogue_versions_by_set ON catalogue_versions (set_id, number);

CREATE TABLE catalogue_sets (
    set_id     TEXT    NOT NULL PRIMARY KEY,
    game       TEXT    NOT NULL,
    current    TEXT    NOT NULL REFERENCES catalogue_versions (hash),
    builtin    INTEGER NOT NULL CHECK (builtin IN (0, 1)),
    updated_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE catalogue_cards (
    game      TEXT NOT NULL,
    card      TEXT NOT NULL,
    set_id    TEXT NOT NULL REFERENCES catalogue_sets (set_id),
    card_json TEXT NOT NULL,
    PRIMARY KEY (game, card, set_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX catalogue_cards_by_set ON catalogue_cards (set_id);

ALTER TABLE matches ADD COLUMN catalogue_version TEXT REFERENCES catalogue_versions (hash);

CREATE INDEX matches_by_catalogue ON matches (catalogue_version);

CREATE TRIGGER catalogue_versions_never_updated BEFORE UPDATE ON catalogue_versions
BEGIN
    SELECT RAISE(ABORT, 'a stored catalogue version is never changed: add the edited set as a new version');
END;

CREATE TRIGGER catalogue_versions_kept_while_played BEFORE DELETE ON catalogue_versions
WHEN EXISTS (SELECT 1 FROM matches WHERE catalogue_version = OLD.hash)
BEGIN
    SELECT RAISE(ABORT, 'a catalogue version a stored match was played with is never deleted');
END;

CREATE TRIGGER matches_catalogue_version_fixed BEFORE UPDATE OF catalogue_version ON matches
WHEN OLD.catalogue_version IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'the catalogue version of a match is fixed once it is set');
END;
";

/// Reads `PRAGMA user_version`.
pub(super) fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// Brings the file to version `steps.len()`, one transaction per step.
///
/// Refuses (without writing) a file whose version is newer than `steps.len()` or negative.
pub(super) fn migrate(
    conn: &mut Connection,
    path: &Path,
    steps: &[Step],
) -> Result<(), StoreError> {
    let target = i64::try_from(steps.len()).unwrap_or(i64::MAX);
    if user_version(conn).map_err(|e| sql(path, e))? == target {
        return Ok(());
    }
    loop {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(path, e))?;
        // Read again under the write lock: another process may have migrated meanwhile.
        let version = user_version(&tx).map_err(|e| sql(path, e))?;
        if version == target {
            return Ok(());
        }
        if version > target {
            return Err(StoreError::TooNew {
                path: path.to_path_buf(),
                found: version,
                supported: target,
            });
        }
        let step = usize::try_from(version).ok().and_then(|v| steps.get(v));
        let Some(step) = step else {
            return Err(StoreError::Corrupt {
                path: path.to_path_buf(),
                detail: format!("impossible schema version {version}"),
            });
        };
        let to_version = version + 1;
        let failed = |cause| StoreError::Migration {
            path: path.to_path_buf(),
            to_version,
            cause,
        };
        tx.execute_batch(step.sql).map_err(failed)?;
        if let Some(then) = step.then {
            then(&tx).map_err(failed)?;
        }
        if version == 0 {
            tx.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(failed)?;
        }
        tx.pragma_update(None, "user_version", to_version)
            .map_err(failed)?;
        tx.commit().map_err(failed)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn application_id(conn: &Connection) -> i32 {
        conn.pragma_query_value(None, "application_id", |row| row.get(0))
            .unwrap()
    }

    fn tables(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            .unwrap();
        stmt.query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn empty_file_migrates_from_v0_to_the_newest_version_and_gets_the_application_id() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.sqlite3");
        std::fs::write(&path, b"").unwrap();
        let mut conn = Connection::open(&path).unwrap();
        assert_eq!(user_version(&conn).unwrap(), 0);
        assert_eq!(application_id(&conn), 0);

        migrate(&mut conn, &path, MIGRATIONS).unwrap();

        assert_eq!(user_version(&conn).unwrap(), 3);
        assert_eq!(application_id(&conn), APPLICATION_ID);
        assert_eq!(
            tables(&conn),
            [
                "catalogue_cards",
                "catalogue_sets",
                "catalogue_versions",
                "deck_copies",
                "decks",
                "entries",
                "matches",
                "sqlite_sequence"
            ]
            .map(String::from)
        );
        // Running again is a no-op.
        migrate(&mut conn, &path, MIGRATIONS).unwrap();
        assert_eq!(user_version(&conn).unwrap(), 3);
    }

    #[test]
    fn later_steps_apply_in_order_on_top_of_an_existing_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        let path = Path::new(":memory:");
        migrate(&mut conn, path, &[Step::sql(V1)]).unwrap();
        conn.execute(
            "INSERT INTO matches (game, created_ms, header_json, status, updated_ms)
             VALUES ('kept', 1, '{}', 'open', 1)",
            [],
        )
        .unwrap();

        let v2 = "ALTER TABLE matches ADD COLUMN table_name TEXT NOT NULL DEFAULT 'main';";
        let v3 = "CREATE TABLE notes (match_id INTEGER NOT NULL, note TEXT NOT NULL) STRICT;";
        migrate(
            &mut conn,
            path,
            &[Step::sql(V1), Step::sql(v2), Step::sql(v3)],
        )
        .unwrap();

        assert_eq!(user_version(&conn).unwrap(), 3);
        let (game, table): (String, String) = conn
            .query_row("SELECT game, table_name FROM matches", [], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .unwrap();
        assert_eq!((game.as_str(), table.as_str()), ("kept", "main"));
        assert!(tables(&conn).contains(&"notes".to_string()));
    }

    #[test]
    fn a_failing_step_rolls_back_and_keeps_the_previous_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        let path = Path::new(":memory:");
        migrate(&mut conn, path, &[Step::sql(V1)]).unwrap();

        let v2 = "CREATE TABLE half_done (x INTEGER) STRICT; INSERT INTO no_such_table VALUES (1);";
        let err = migrate(&mut conn, path, &[Step::sql(V1), Step::sql(v2)]).unwrap_err();

        assert!(
            matches!(err, StoreError::Migration { to_version: 2, .. }),
            "{err:?}"
        );
        assert_eq!(user_version(&conn).unwrap(), 1);
        assert!(!tables(&conn).contains(&"half_done".to_string()));
    }

    #[test]
    fn a_newer_version_is_refused_without_writing() {
        let mut conn = Connection::open_in_memory().unwrap();
        let path = Path::new(":memory:");
        conn.pragma_update(None, "user_version", 7).unwrap();

        let err = migrate(&mut conn, path, MIGRATIONS).unwrap_err();

        assert!(
            matches!(
                err,
                StoreError::TooNew {
                    found: 7,
                    supported: 3,
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(user_version(&conn).unwrap(), 7);
        assert!(tables(&conn).is_empty());
    }

    #[test]
    fn schema_version_counts_the_migration_steps() {
        assert_eq!(
            super::super::Store::SCHEMA_VERSION,
            i64::try_from(MIGRATIONS.len()).unwrap()
        );
    }
}
