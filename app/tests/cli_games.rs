//! Every game's example match, played headless with `tableside play --script` into a store, ends
//! in the result the script states; `tableside replay` rebuilds the same state from the stored log.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tableside(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("TABLESIDE_DATA_DIR")
        .env_remove("TABLESIDE_CONFIG")
        .output()
        .expect("run tableside")
}

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Plays the example, checks the winner's seat, and checks that a replay from the store gives
/// the same state.
fn play_and_replay(game: &str, script: &str, winner: u64) {
    let dir = tempfile::tempdir().unwrap();
    let out = tableside(
        dir.path(),
        &[
            "play",
            "--game",
            game,
            "--script",
            &example(script),
            "--json",
        ],
    );
    assert!(out.status.success(), "{game}: {}", text(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        played["outcome"]["winner"], winner,
        "{game}: {}",
        played["outcome"]
    );
    let out = tableside(dir.path(), &["replay", "--json"]);
    assert!(out.status.success(), "{game}: {}", text(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        replayed["state"], played["state"],
        "{game}: replay differs from the live match"
    );
    assert_eq!(replayed["outcome"], played["outcome"], "{game}");
}

#[test]
fn junk_ken_example_match() {
    play_and_replay("junk-ken", "junk_ken-demo.script", 0);
}

#[test]
fn space_junk_example_match() {
    play_and_replay("space-junk", "space_junk-demo.script", 2);
}

#[test]
fn yomi_example_match() {
    play_and_replay("yomi", "yomi-demo.script", 0);
}

#[test]
fn rockman_exe_example_match() {
    play_and_replay("rockman-exe", "rockman-demo.script", 0);
}
