//! The Pi kiosk's settings: the packaged config file (`packaging/tableside.toml`) is valid, and a
//! match played with it — the data folder from the config, not a flag — survives SIGKILL at
//! random points with every committed input kept (the power-cut guarantee for the kiosk).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use tableside::config::Config;
use tableside::store::{MatchId, Store};

const PACKAGED: &str = include_str!("../../packaging/tableside.toml");
const SCRIPT: &str = include_str!("../../docs/examples/jaken-demo.script");

/// The packaged config with its data folder moved into `dir` (the only change).
fn kiosk_config(dir: &Path) -> std::path::PathBuf {
    let text = PACKAGED.replace(
        "dir = \"/var/lib/tableside\"",
        &format!("dir = \"{}\"", dir.join("data").display()),
    );
    assert_ne!(text, PACKAGED, "the packaged config names its data folder");
    let path = dir.join("tableside.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_packaged_config_is_valid_and_asks_for_a_kiosk() {
    let c = Config::parse("packaging/tableside.toml", PACKAGED).unwrap();
    assert!(c.ui.kiosk);
    assert_eq!(c.data.dir.as_deref(), Some(Path::new("/var/lib/tableside")));
    assert_eq!(c.devices.tower, "auto");
    let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .args(["--config", "../packaging/tableside.toml", "config", "check"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("is valid"));
}

#[test]
fn a_broken_config_stops_the_app_with_the_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, "[ui]\nlanguage = \"fr\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--config")
        .arg(&path)
        .args(["log", "list"])
        .env_remove("TABLESIDE_DATA_DIR")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml:2") && err.contains("language"),
        "{err}"
    );
}

#[test]
fn killing_the_kiosk_mid_match_loses_nothing_committed() {
    let dir = tempfile::tempdir().unwrap();
    let config = kiosk_config(dir.path());
    let script = dir.path().join("demo.script");
    std::fs::write(&script, SCRIPT).unwrap();
    let db = dir.path().join("data").join("tableside.sqlite3");
    for round in 0..20u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tableside"))
            .arg("--config")
            .arg(&config)
            .args(["play", "--game", "jaken", "--progress", "--script"])
            .arg(&script)
            .env_remove("TABLESIDE_DATA_DIR")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        // Kill after a varying number of committed inputs.
        let stop_after = 3 + (round * 7) % 40;
        let mut committed = 0u64;
        for line in BufReader::new(stderr).lines() {
            let line = line.unwrap();
            if line.starts_with("committed ") {
                committed += 1;
                if committed == stop_after {
                    break;
                }
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        std::thread::sleep(Duration::from_millis(5));
        // The match of this round holds at least every input reported committed.
        let store = Store::open_read_only(&db).unwrap();
        let newest = store
            .matches()
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .max()
            .unwrap();
        let entries = store.entries(newest).unwrap();
        assert!(
            entries.len() as u64 >= committed,
            "round {round}: {committed} committed, {} stored",
            entries.len()
        );
        assert_eq!(newest, MatchId(i64::try_from(round).unwrap() + 1));
    }
}
