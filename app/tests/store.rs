//! The match store against real files: the log round-trips, is append-only, survives a
//! restart, and files that are not sound Tableside match logs are refused untouched.

// The helpers below are test code as much as the `#[test]` functions: a failed step must fail
// the test, so they unwrap too.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use tableside::store::{
    DB_FILE_NAME, MatchId, MatchStatus, Store, StoreError, StoredEntry, default_db_path,
};
use tempfile::TempDir;

const HEADER: &str = r#"{"players":["Aki","Ben"],"deck":"starter"}"#;

fn input(n: u64) -> String {
    format!(
        r#"{{"Roll":{{"player":1,"sides":6,"value":{}}}}}"#,
        n % 6 + 1
    )
}

fn temp() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE_NAME);
    (dir, path)
}

/// A real match log with two matches (one finished) and `n` entries in the first; closed.
fn real_log(path: &Path, n: u64) -> MatchId {
    let mut store = Store::open(path).unwrap();
    let id = store.create_match("duel", HEADER, 1_000).unwrap();
    for seq in 0..n {
        store
            .append(id, seq, &input(seq), 2_000 + seq as i64)
            .unwrap();
    }
    let other = store.create_match("clockwise", "{}", 3_000).unwrap();
    store.finish(other, r#"{"winner":0}"#, 4_000).unwrap();
    id
}

/// The names and sizes of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<(String, u64)> {
    let mut files: Vec<(String, u64)> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, entry.metadata().unwrap().len())
        })
        .collect();
    files.sort();
    files
}

/// Asserts that `open` and `open_read_only` both refuse the file at `path` with an error
/// matching `expected`, naming the file, and that the file's bytes are unchanged and no file
/// was left beside it.
fn assert_refused_untouched(path: &Path, expected: fn(&StoreError) -> bool) -> String {
    let before = fs::read(path).unwrap();
    let folder = path.parent().unwrap();
    let files_before = listing(folder);
    let mut message = String::new();
    for opened in [Store::open(path), Store::open_read_only(path)] {
        let err = opened.unwrap_err();
        assert!(expected(&err), "unexpected error: {err:?}");
        message = err.to_string();
        assert!(
            message.contains(&path.display().to_string()),
            "message does not name the file: {message}"
        );
        assert!(message.contains("untouched"), "{message}");
        assert_eq!(
            fs::read(path).unwrap(),
            before,
            "the refused file was modified"
        );
        assert_eq!(
            listing(folder),
            files_before,
            "files appeared beside the refused file"
        );
    }
    message
}

#[test]
fn appended_entries_read_back_in_order() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let id = store.create_match("duel", HEADER, 1_000).unwrap();
    let inputs: Vec<String> = (0..50).map(input).collect();
    for (seq, text) in inputs.iter().enumerate() {
        store
            .append(id, seq as u64, text, 1_000 + seq as i64)
            .unwrap();
    }

    let log = store.entries(id).unwrap();
    let expected: Vec<StoredEntry> = inputs
        .iter()
        .enumerate()
        .map(|(seq, text)| StoredEntry {
            seq: seq as u64,
            at_ms: 1_000 + seq as i64,
            input_json: text.clone(),
        })
        .collect();
    assert_eq!(log, expected);
    let record = store.get(id).unwrap();
    assert_eq!(record.entries, 50);
    assert_eq!(record.updated_ms, 1_049);
    assert_eq!(record.header_json, HEADER);
    assert_eq!(record.status, MatchStatus::Open);
    assert_eq!(store.path(), path);
}

#[test]
fn logs_of_different_matches_are_kept_apart() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let a = store.create_match("duel", HEADER, 1).unwrap();
    let b = store.create_match("duel", HEADER, 2).unwrap();
    store.append(a, 0, r#""a0""#, 3).unwrap();
    store.append(b, 0, r#""b0""#, 4).unwrap();
    store.append(a, 1, r#""a1""#, 5).unwrap();

    let texts = |id| -> Vec<String> {
        store
            .entries(id)
            .unwrap()
            .into_iter()
            .map(|e| e.input_json)
            .collect()
    };
    assert_eq!(texts(a), [r#""a0""#, r#""a1""#]);
    assert_eq!(texts(b), [r#""b0""#]);
}

#[test]
fn a_sequence_gap_or_repeat_is_refused_and_nothing_is_overwritten() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let id = store.create_match("duel", HEADER, 1).unwrap();
    store.append(id, 0, r#""first""#, 2).unwrap();
    store.append(id, 1, r#""second""#, 3).unwrap();

    for bad in [0, 1, 3, 100, u64::MAX] {
        let err = store.append(id, bad, r#""intruder""#, 4).unwrap_err();
        assert!(
            matches!(err, StoreError::OutOfOrder { expected: 2, got, .. } if got == bad),
            "{err:?}"
        );
        assert!(err.to_string().contains("must be number 2"), "{err}");
    }

    let texts: Vec<String> = store
        .entries(id)
        .unwrap()
        .into_iter()
        .map(|e| e.input_json)
        .collect();
    assert_eq!(texts, [r#""first""#, r#""second""#]);
    assert_eq!(store.get(id).unwrap().entries, 2);
    store.append(id, 2, r#""third""#, 5).unwrap();
}

#[test]
fn appends_to_an_unknown_match_or_of_invalid_json_are_refused() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let id = store.create_match("duel", HEADER, 1).unwrap();

    let err = store.append(MatchId(id.0 + 1), 0, "{}", 2).unwrap_err();
    assert!(matches!(err, StoreError::UnknownMatch { .. }), "{err:?}");
    assert!(matches!(
        store.get(MatchId(99)),
        Err(StoreError::UnknownMatch { .. })
    ));
    assert!(matches!(
        store.entries(MatchId(99)),
        Err(StoreError::UnknownMatch { .. })
    ));

    for bad in ["", "{", "not json", r#"{"a":1} trailing"#] {
        let err = store.append(id, 0, bad, 2).unwrap_err();
        assert!(
            matches!(err, StoreError::InvalidJson { what: "input", .. }),
            "{err:?}"
        );
    }
    let err = store.create_match("duel", "{players", 1).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::InvalidJson {
                what: "match header",
                ..
            }
        ),
        "{err:?}"
    );
    let err = store.finish(id, "", 1).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::InvalidJson {
                what: "outcome",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(store.get(id).unwrap().entries, 0);
    assert_eq!(store.matches().unwrap().len(), 1);
}

#[test]
fn a_finished_match_refuses_appends_and_a_second_finish() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let id = store.create_match("duel", HEADER, 1).unwrap();
    store.append(id, 0, &input(0), 2).unwrap();
    store.finish(id, r#"{"winner":"Aki"}"#, 3).unwrap();

    let err = store.append(id, 1, &input(1), 4).unwrap_err();
    assert!(matches!(err, StoreError::MatchFinished { .. }), "{err:?}");
    let err = store.finish(id, r#"{"winner":"Ben"}"#, 5).unwrap_err();
    assert!(matches!(err, StoreError::MatchFinished { .. }), "{err:?}");

    let record = store.get(id).unwrap();
    assert_eq!(record.status, MatchStatus::Finished);
    assert_eq!(record.outcome_json.as_deref(), Some(r#"{"winner":"Aki"}"#));
    assert_eq!(record.entries, 1);
    assert_eq!(record.updated_ms, 3);
}

#[test]
fn reopen_makes_a_finished_match_take_entries_again_and_is_a_no_op_on_an_open_one() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let id = store.create_match("duel", HEADER, 1).unwrap();
    store.append(id, 0, &input(0), 2).unwrap();

    // Reopening an open match changes nothing.
    let before = store.get(id).unwrap();
    store.reopen(id, 3).unwrap();
    assert_eq!(store.get(id).unwrap(), before);

    store.finish(id, r#"{"winner":"Aki"}"#, 4).unwrap();
    store.reopen(id, 5).unwrap();
    let record = store.get(id).unwrap();
    assert_eq!(record.status, MatchStatus::Open);
    assert_eq!(record.outcome_json, None);
    assert_eq!(record.updated_ms, 5);

    store.append(id, 1, r#"{"Undo":null}"#, 6).unwrap();
    store.finish(id, r#"{"winner":"Ben"}"#, 7).unwrap();
    let record = store.get(id).unwrap();
    assert_eq!(record.entries, 2);
    assert_eq!(record.outcome_json.as_deref(), Some(r#"{"winner":"Ben"}"#));
}

#[test]
fn listings_are_newest_first_and_unfinished_lists_only_open_matches() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let old = store.create_match("duel", HEADER, 100).unwrap();
    let done = store.create_match("clockwise", HEADER, 200).unwrap();
    let new = store.create_match("duel", HEADER, 300).unwrap();
    // Same creation time: the higher id is newer.
    let newest = store.create_match("duel", HEADER, 300).unwrap();
    store.finish(done, "null", 400).unwrap();

    let ids = |records: Vec<tableside::store::MatchRecord>| -> Vec<MatchId> {
        records.into_iter().map(|r| r.id).collect()
    };
    assert_eq!(ids(store.matches().unwrap()), [newest, new, done, old]);
    assert_eq!(ids(store.unfinished().unwrap()), [newest, new, old]);

    store.reopen(done, 500).unwrap();
    assert_eq!(ids(store.unfinished().unwrap()), [newest, new, done, old]);
    assert_eq!(store.matches().unwrap()[2].game, "clockwise");
}

#[test]
fn data_survives_drop_and_reopen() {
    let (_dir, path) = temp();
    let id = real_log(&path, 30);
    let store = Store::open(&path).unwrap();
    let before_matches = store.matches().unwrap();
    let before_log = store.entries(id).unwrap();
    assert_eq!(before_log.len(), 30);
    drop(store);

    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.matches().unwrap(), before_matches);
    assert_eq!(store.entries(id).unwrap(), before_log);
    assert_eq!(store.unfinished().unwrap().len(), 1);
    // The log continues where it stopped.
    store.append(id, 30, &input(30), 9_000).unwrap();
    drop(store);
    let store = Store::open_read_only(&path).unwrap();
    assert_eq!(store.entries(id).unwrap().len(), 31);
}

#[test]
fn open_creates_missing_parent_folders() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a").join("b").join(DB_FILE_NAME);
    let mut store = Store::open(&path).unwrap();
    store.create_match("duel", HEADER, 1).unwrap();
    assert!(path.is_file());
}

#[test]
fn read_only_store_reads_but_never_writes_nor_creates() {
    let (_dir, path) = temp();
    let err = Store::open_read_only(&path).unwrap_err();
    assert!(matches!(err, StoreError::NotFound { .. }), "{err:?}");
    assert!(!path.exists(), "a read-only open created the file");

    let id = real_log(&path, 3);
    let before = fs::read(&path).unwrap();
    let mut store = Store::open_read_only(&path).unwrap();
    assert!(store.is_read_only());
    assert_eq!(store.entries(id).unwrap().len(), 3);
    assert_eq!(store.matches().unwrap().len(), 2);
    for err in [
        store.append(id, 3, "{}", 1).unwrap_err(),
        store.create_match("duel", "{}", 1).unwrap_err(),
        store.finish(id, "{}", 1).unwrap_err(),
    ] {
        assert!(matches!(err, StoreError::ReadOnly { .. }), "{err:?}");
    }
    drop(store);
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn a_second_writer_cannot_overwrite_the_first() {
    let (_dir, path) = temp();
    let mut first = Store::open(&path).unwrap();
    let mut second = Store::open(&path).unwrap();
    let id = first.create_match("duel", HEADER, 1).unwrap();
    first.append(id, 0, r#""from first""#, 2).unwrap();

    let err = second.append(id, 0, r#""from second""#, 3).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::OutOfOrder {
                expected: 1,
                got: 0,
                ..
            }
        ),
        "{err:?}"
    );
    second.append(id, 1, r#""from second""#, 3).unwrap();
    assert_eq!(first.entries(id).unwrap(), second.entries(id).unwrap());
    assert_eq!(first.entries(id).unwrap()[0].input_json, r#""from first""#);
}

#[test]
fn the_file_itself_refuses_to_change_or_delete_log_entries() {
    let (_dir, path) = temp();
    let id = real_log(&path, 3);
    let conn = Connection::open(&path).unwrap();
    for statement in [
        "UPDATE entries SET input_json = '\"forged\"' WHERE seq = 1",
        "DELETE FROM entries WHERE seq = 2",
        "DELETE FROM matches",
        "INSERT INTO entries (match_id, seq, at_ms, input_json) VALUES (1, 5, 0, '{}')",
        "INSERT INTO entries (match_id, seq, at_ms, input_json) VALUES (2, 0, 0, '{}')",
    ] {
        let err = conn.execute(statement, []).unwrap_err();
        assert!(err.to_string().contains("match"), "{statement}: {err}");
    }
    drop(conn);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.entries(id).unwrap().len(), 3);
    assert_eq!(store.entries(id).unwrap()[1].input_json, input(1));
}

#[test]
fn random_bytes_are_refused_untouched() {
    let (_dir, path) = temp();
    // A fixed pseudo-random sequence (xorshift), so the test is reproducible.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes: Vec<u8> = (0..10_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    fs::write(&path, &bytes).unwrap();
    let message = assert_refused_untouched(&path, |e| matches!(e, StoreError::NotADatabase { .. }));
    assert!(message.contains("not an SQLite database"), "{message}");
}

#[test]
fn a_text_file_is_refused_untouched() {
    let (_dir, path) = temp();
    fs::write(&path, "players: Aki, Ben\nwinner: Aki\n").unwrap();
    assert_refused_untouched(&path, |e| matches!(e, StoreError::NotADatabase { .. }));
}

#[test]
fn a_truncated_log_is_refused_untouched() {
    let (dir, path) = temp();
    real_log(&path, 2_000);
    let whole = fs::read(&path).unwrap();
    assert!(whole.len() > 8 * 4096, "the log should span many pages");

    for (name, len) in [
        ("mid-page", whole.len() / 2 + 1000),
        ("page-boundary", 4 * 4096),
        ("inside-header", 60),
        ("inside-magic", 10),
    ] {
        let cut = dir.path().join(format!("{name}.sqlite3"));
        fs::write(&cut, &whole[..len]).unwrap();
        let message = assert_refused_untouched(&cut, |e| matches!(e, StoreError::Corrupt { .. }));
        assert!(message.contains("damaged"), "{name}: {message}");
        assert!(message.contains("cut short"), "{name}: {message}");
    }
}

#[test]
fn a_damaged_page_is_refused_untouched() {
    let (_dir, path) = temp();
    real_log(&path, 2_000);
    let mut bytes = fs::read(&path).unwrap();
    // Overwrite page 3 onwards (b-tree pages of the log) with garbage; the header stays sound.
    for b in &mut bytes[2 * 4096..4 * 4096] {
        *b = 0xA5;
    }
    fs::write(&path, &bytes).unwrap();
    let message = assert_refused_untouched(&path, |e| matches!(e, StoreError::Corrupt { .. }));
    assert!(message.contains("damaged"), "{message}");
}

#[test]
fn a_future_schema_version_is_refused_untouched() {
    let (_dir, path) = temp();
    real_log(&path, 3);
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", Store::SCHEMA_VERSION + 1)
        .unwrap();
    drop(conn);

    let message = assert_refused_untouched(&path, |e| {
        matches!(e, StoreError::TooNew { found, supported, .. }
            if *found == Store::SCHEMA_VERSION + 1 && *supported == Store::SCHEMA_VERSION)
    });
    assert!(message.contains("newer Tableside"), "{message}");
}

#[test]
fn a_future_schema_version_still_in_the_wal_is_refused_untouched() {
    let (_dir, path) = temp();
    real_log(&path, 3);
    // Another (newer) program has the file open and its upgrade is only in the WAL so far:
    // the main file's header still says version 1.
    let newer = Connection::open(&path).unwrap();
    newer.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    newer.pragma_update(None, "user_version", 7).unwrap();

    let before = fs::read(&path).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(err, StoreError::TooNew { found: 7, .. }),
        "{err:?}"
    );
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn a_foreign_sqlite_database_is_refused_untouched() {
    let (dir, path) = temp();
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA application_id = 0x47504B47;
         CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY);
         INSERT INTO gpkg_contents VALUES ('roads');",
    )
    .unwrap();
    drop(conn);
    let message = assert_refused_untouched(&path, |e| {
        matches!(
            e,
            StoreError::ForeignDatabase {
                application_id: 0x4750_4B47,
                ..
            }
        )
    });
    assert!(message.contains("another program"), "{message}");

    // No application id at all, but tables: some other program's database.
    let unmarked = dir.path().join("unmarked.sqlite3");
    let conn = Connection::open(&unmarked).unwrap();
    conn.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hi');")
        .unwrap();
    drop(conn);
    assert_refused_untouched(&unmarked, |e| {
        matches!(
            e,
            StoreError::ForeignDatabase {
                application_id: 0,
                ..
            }
        )
    });
}

#[test]
fn an_empty_file_becomes_a_new_log() {
    let (_dir, path) = temp();
    fs::write(&path, b"").unwrap();
    let mut store = Store::open(&path).unwrap();
    let id = store.create_match("duel", HEADER, 1).unwrap();
    store.append(id, 0, "{}", 2).unwrap();
    drop(store);
    let conn = Connection::open(&path).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, Store::SCHEMA_VERSION);
}

/// The version-1 file format, frozen: this is how a version-1 file was written by hand. Later
/// versions must keep opening it (through their migrations) with its data intact.
#[test]
fn a_hand_made_version_1_file_opens_with_its_data() {
    let (_dir, path) = temp();
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        r#"
        PRAGMA journal_mode = WAL;
        BEGIN;
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
        INSERT INTO matches VALUES (7, 'duel', 100, '{"players":2}', 'finished', '{"winner":1}', 2, 300);
        INSERT INTO matches VALUES (8, 'clockwise', 400, '{}', 'open', NULL, 1, 500);
        INSERT INTO entries VALUES (7, 0, 150, '{"Roll":4}'), (7, 1, 300, '"Undo"'), (8, 0, 500, '[]');
        PRAGMA application_id = 0x54425344;
        PRAGMA user_version = 1;
        COMMIT;
        "#,
    )
    .unwrap();
    drop(conn);

    let mut store = Store::open(&path).unwrap();
    let duel = store.get(MatchId(7)).unwrap();
    assert_eq!(duel.game, "duel");
    assert_eq!(duel.status, MatchStatus::Finished);
    assert_eq!(duel.outcome_json.as_deref(), Some(r#"{"winner":1}"#));
    assert_eq!(duel.entries, 2);
    assert_eq!(
        store.entries(MatchId(7)).unwrap(),
        [
            StoredEntry {
                seq: 0,
                at_ms: 150,
                input_json: r#"{"Roll":4}"#.into()
            },
            StoredEntry {
                seq: 1,
                at_ms: 300,
                input_json: r#""Undo""#.into()
            },
        ]
    );
    assert_eq!(
        store
            .unfinished()
            .unwrap()
            .iter()
            .map(|m| m.id)
            .collect::<Vec<_>>(),
        [MatchId(8)]
    );
    store.append(MatchId(8), 1, "{}", 600).unwrap();
    let next = store.create_match("duel", "{}", 700).unwrap();
    assert!(next > MatchId(8), "ids are never reused: {next}");
}

#[test]
fn a_folder_in_place_of_the_file_is_refused() {
    let (_dir, path) = temp();
    fs::create_dir(&path).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::IsADirectory { .. }), "{err:?}");
}

#[test]
fn the_data_dir_flag_names_the_folder_of_the_log() {
    let dir = Path::new("/srv/table-3");
    assert_eq!(
        default_db_path(Some(dir)).unwrap(),
        Path::new("/srv/table-3/tableside.sqlite3")
    );
    // Without a flag there is always some answer on a machine with a home directory or
    // TABLESIDE_DATA_DIR; it ends with the file name either way.
    if let Ok(path) = default_db_path(None) {
        assert!(path.ends_with(DB_FILE_NAME), "{}", path.display());
    }
}

/// A crash in the middle of a rollback-journal transaction leaves a "hot" journal. Both a
/// read-write and a read-only open let SQLite roll it back (restoring the last committed
/// state) and then accept the file.
#[test]
fn a_hot_journal_left_by_a_crash_is_rolled_back_by_a_read_write_open() {
    let (dir, path) = temp();
    let id = real_log(&path, 5);
    let committed = Store::open(&path).unwrap().entries(id).unwrap();

    // A writer in rollback-journal mode, stopped in the middle of a large transaction whose
    // pages have already spilled into the database file.
    let mut writer = Connection::open(&path).unwrap();
    writer
        .pragma_update(None, "journal_mode", "DELETE")
        .unwrap();
    writer.pragma_update(None, "cache_size", 4).unwrap();
    let tx = writer.transaction().unwrap();
    tx.execute_batch("CREATE TABLE junk (x BLOB)").unwrap();
    for _ in 0..200 {
        tx.execute("INSERT INTO junk VALUES (zeroblob(3000))", [])
            .unwrap();
    }
    // "Crash": copy the database and its journal as they are now, with nobody holding them.
    let crashed = dir.path().join("crashed.sqlite3");
    let journal = |p: &Path| PathBuf::from(format!("{}-journal", p.display()));
    assert!(journal(&path).exists(), "the writer should have a journal");
    fs::copy(&path, &crashed).unwrap();
    fs::copy(journal(&path), journal(&crashed)).unwrap();
    tx.rollback().unwrap();
    drop(writer);
    assert_ne!(
        fs::read(&crashed).unwrap(),
        fs::read(&path).unwrap(),
        "the crashed copy should hold uncommitted pages"
    );

    // A read-only open (`log list` after a crash) recovers it too, as long as the folder is
    // writable: the player never has to find the right command to run first.
    let crashed_copy = dir.path().join("crashed-copy.sqlite3");
    fs::copy(&crashed, &crashed_copy).unwrap();
    fs::copy(journal(&crashed), journal(&crashed_copy)).unwrap();
    let reader = Store::open_read_only(&crashed_copy).unwrap();
    assert_eq!(reader.entries(id).unwrap(), committed);
    assert!(
        !journal(&crashed_copy).exists(),
        "the journal should be rolled back"
    );
    drop(reader);

    let store = Store::open(&crashed).unwrap();
    assert_eq!(store.entries(id).unwrap(), committed);
    assert!(
        !journal(&crashed).exists(),
        "the journal should be rolled back"
    );
    drop(store);
    let conn = Connection::open(&crashed).unwrap();
    let junk: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'junk'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(junk, 0, "the uncommitted table should be gone");
}
