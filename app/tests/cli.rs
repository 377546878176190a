//! The command line as a user runs it: `play`, `replay`, `log`, and every bad input's message.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

const DEMO: &str = include_str!("../../docs/examples/jaken-demo.script");

fn tableside(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("TABLESIDE_DATA_DIR")
        .output()
        .expect("run tableside")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write_script(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p.to_string_lossy().into_owned()
}

fn hash(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn play_then_replay_then_log() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "demo.script", DEMO);
    let out = tableside(
        dir.path(),
        &["play", "--game", "jaken", "--script", &script, "--json"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(played["outcome"]["winner"], 1);
    assert_eq!(played["state"]["players"][0]["sb"], 8);
    assert_eq!(played["state"]["players"][1]["sb"], 12);

    // The readable summary names the winner.
    let out = tableside(dir.path(), &["replay"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Ben wins"),
        "{}",
        text(&out.stdout)
    );

    // Replaying the stored log gives the same state.
    let out = tableside(dir.path(), &["replay", "--json"]);
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replayed["state"], played["state"]);
    assert_eq!(replayed["entries"], played["entries"]);

    let out = tableside(dir.path(), &["log", "list"]);
    assert!(
        text(&out.stdout).contains("Aki vs Ben"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("finished"));

    let id = played["match_id"].as_i64().unwrap().to_string();
    let out = tableside(dir.path(), &["log", "show", &id]);
    let shown = text(&out.stdout);
    assert!(shown.contains("[undone]"), "{shown}");
    assert!(shown.contains("overrode [jaken.summon-cost]"), "{shown}");
    assert!(shown.contains("free roll: d6 = 5 (typed)"), "{shown}");

    let out = tableside(dir.path(), &["log", "export", &id, "--format", "csv"]);
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("seq,at_ms,kind,text,undone,input_json"));
    assert_eq!(lines.count() as u64, played["entries"].as_u64().unwrap());

    let out = tableside(dir.path(), &["log", "export", &id, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["entries"].as_array().unwrap().len() as u64,
        played["entries"].as_u64().unwrap()
    );
    assert_eq!(doc["header"]["players"][0]["name"], "Aki");
}

const HEAD: &str =
    "game jaken\nplayer Aki deck=lantern\nplayer Ben deck=gale\nmove first-parent player=Aki\n";

#[test]
fn a_refused_move_exits_2_with_rule_and_sentence_and_keeps_what_came_before() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "{HEAD}move pass-bg player=Aki\nmove face-down player=Aki\nmove face-down player=Ben\nmove reveal player=Aki card=JD08\n"
    );
    let script = write_script(dir.path(), "bad.script", &body);
    let out = tableside(
        dir.path(),
        &["play", "--game", "jaken", "--script", &script],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("line 8"), "{err}");
    assert!(err.contains("jaken.summon-cost"), "{err}");
    assert!(
        err.contains("summon cost must be at most the battle number"),
        "{err}"
    );
    // The four inputs before it are stored.
    let out = tableside(dir.path(), &["log", "list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list[0]["entries"], 4);
    assert_eq!(list[0]["status"], "open");
}

#[test]
fn a_move_in_the_wrong_phase_is_refused_with_the_phase_rule() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(
        dir.path(),
        "phase.script",
        &format!("{HEAD}move face-down player=Ben\n"),
    );
    let out = tableside(
        dir.path(),
        &["play", "--game", "jaken", "--script", &script, "--no-store"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("jaken.phase-order") && err.contains("P5"),
        "{err}"
    );
}

#[test]
fn an_unknown_card_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "{HEAD}move pass-bg player=Aki\nmove face-down player=Aki\nmove face-down player=Ben\nmove reveal player=Aki card=ZZ99\n"
    );
    let script = write_script(dir.path(), "unknown.script", &body);
    let out = tableside(
        dir.path(),
        &["play", "--game", "jaken", "--script", &script, "--no-store"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("card `ZZ99` is in neither player's deck"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn script_syntax_errors_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "syntax.script", &format!("{HEAD}roll d6\n"));
    let out = tableside(
        dir.path(),
        &["play", "--game", "jaken", "--script", &script],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("syntax.script: line 5:") && err.contains("face shown"),
        "{err}"
    );
    // Another game's script is refused before anything is stored.
    let script = write_script(dir.path(), "jaken.script", HEAD);
    let out = tableside(dir.path(), &["play", "--game", "yomi", "--script", &script]);
    assert!(
        text(&out.stderr).contains("the script is for jaken, not yomi"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.path().join("tableside.sqlite3").exists());
}

#[test]
fn a_corrupt_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let mut junk = b"SQLite format 3\0".to_vec();
    junk.extend((0..8192u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8));
    std::fs::write(&db, &junk).unwrap();
    let before = hash(&db);
    for args in [&["log", "list"][..], &["replay"][..]] {
        let out = tableside(dir.path(), args);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains(&db.display().to_string()),
            "{}",
            text(&out.stderr)
        );
    }
    let script = write_script(dir.path(), "demo.script", DEMO);
    let out = tableside(
        dir.path(),
        &["play", "--game", "jaken", "--script", &script],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(hash(&db), before, "the corrupt file was modified");
}

#[test]
fn a_database_from_a_newer_version_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "demo.script", DEMO);
    assert!(
        tableside(
            dir.path(),
            &["play", "--game", "jaken", "--script", &script]
        )
        .status
        .success()
    );
    let db = dir.path().join("tableside.sqlite3");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch("PRAGMA user_version = 99; PRAGMA journal_mode = DELETE;")
            .unwrap();
    }
    let before = hash(&db);
    let out = tableside(
        dir.path(),
        &["play", "--game", "jaken", "--script", &script],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("99"), "{err}");
    assert_eq!(hash(&db), before);
}
