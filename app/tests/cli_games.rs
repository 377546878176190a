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

/// The final scores a script states: `expect score player=<name> <n>`, by seat.
fn stated_scores(script: &str) -> Vec<(usize, i64)> {
    let text = std::fs::read_to_string(example(script)).unwrap();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("player "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    text.lines()
        .filter_map(|l| l.strip_prefix("expect score player="))
        .map(|rest| {
            let (name, n) = rest.split_once(' ').unwrap();
            let seat = names.iter().position(|x| *x == name).unwrap();
            (seat, n.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn space_junk_six_player_six_round_match_ends_in_the_stated_scores() {
    let script = "space_junk-6p.script";
    let stated = stated_scores(script);
    assert_eq!(stated.len(), 6, "the script states every player's score");
    let dir = tempfile::tempdir().unwrap();
    let out = tableside(
        dir.path(),
        &[
            "play",
            "--game",
            "space-junk",
            "--script",
            &example(script),
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let trackers = played["trackers"].as_array().unwrap();
    let score = |seat: usize| {
        trackers
            .iter()
            .find(|t| t["id"]["name"] == "score" && t["id"]["player"] == seat)
            .and_then(|t| t["value"].as_i64())
            .unwrap()
    };
    for (seat, value) in &stated {
        assert_eq!(score(*seat), *value, "seat {seat}'s final count");
    }
    assert_eq!(played["state"]["round"], 6, "six rounds were played");
    assert_eq!(played["state"]["players"].as_array().unwrap().len(), 6);
    // The best final count wins.
    let best = stated.iter().max_by_key(|(_, v)| *v).unwrap();
    assert_eq!(played["outcome"]["winner"], best.0, "{}", played["outcome"]);
    // And the stored match replays to the same state.
    let out = tableside(dir.path(), &["replay", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replayed["state"], played["state"]);
}

#[test]
fn space_junk_two_player_example_match() {
    play_and_replay("space-junk", "space_junk-2p.script", 0);
}

#[test]
fn a_junk_ken_draft_goes_on_to_its_next_battle_from_the_stored_match() {
    let dir = tempfile::tempdir().unwrap();
    let play = |script: &str, extra: &[&str]| {
        let mut args = vec!["play", "--game", "junk-ken", "--script", script, "--json"];
        args.extend_from_slice(extra);
        tableside(dir.path(), &args)
    };
    // Given battle 1 of the draft, won by Aki (match 1) …
    let first = example("junk_ken-draft.script");
    let out = play(&first, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let one: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(one["outcome"]["winner"], 0);
    // … battle 2 goes on from it: the exchange, pack purchase 2, decks, and Ben wins.
    let second = example("junk_ken-draft-2.script");
    let out = play(&second, &["--next-battle-of", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let two: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(two["outcome"]["winner"], 1, "{}", two["outcome"]);
    assert_eq!(two["state"]["table"]["draft"]["battle"], 2);
    // It replays from the store alone: the carried draft is in its header.
    let out = tableside(dir.path(), &["replay", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replayed["state"], two["state"]);
    // A match that is no draft, or other players, are refused with the reason.
    let demo = example("junk_ken-demo.script");
    let out = play(&demo, &[]);
    assert!(out.status.success());
    let out = play(&second, &["--next-battle-of", "3"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("not a JUNK-KEN draft whose battle is over"),
        "{}",
        text(&out.stderr)
    );
    let others = dir.path().join("others.script");
    std::fs::write(
        &others,
        "game junk-ken\nplayer Cho\nplayer Ben\nrule draft=true\n",
    )
    .unwrap();
    let out = play(others.to_str().unwrap(), &["--next-battle-of", "1"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("played by Aki, Ben, not Cho, Ben"),
        "{}",
        text(&out.stderr)
    );
}
