//! The `tower-sim` binary, driven through its standard input like a person would, read by
//! the host link through the port it prints.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use firmware_bridge::link::{Link, LinkConfig, LinkState, StartFrom, TowerRef};

/// Starts `tower-sim` with `args` and `--link port`; returns it, its standard input, and the
/// first line it printed.
fn spawn_tower_sim(
    args: &[&str],
    port: &std::path::Path,
) -> (std::process::Child, std::process::ChildStdin, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tower-sim"))
        .args(args)
        .arg("--link")
        .arg(port)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut printed = String::new();
    stdout.read_line(&mut printed).unwrap();
    (child, stdin, printed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tower_sim_answers_commands_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let port = dir.path().join("tower");
    let (mut child, mut stdin, printed) = spawn_tower_sim(
        &["--dice", "6,20", "--heartbeat-ms", "50", "--seed", "9"],
        &port,
    );
    assert_eq!(
        printed.trim(),
        port.to_str().unwrap(),
        "prints the port first"
    );

    let mut link = Link::spawn(LinkConfig {
        start: StartFrom::Held,
        ping_retry: Duration::from_millis(100),
        ..LinkConfig::path(&port)
    })
    .unwrap();
    let mut health = link.watch_health();
    tokio::time::timeout(
        Duration::from_secs(5),
        health.wait_for(|h| h.state == LinkState::Connected),
    )
    .await
    .unwrap()
    .unwrap();

    let mut next = async || {
        tokio::time::timeout(Duration::from_secs(3), link.recv())
            .await
            .unwrap()
            .unwrap()
    };
    writeln!(stdin, "d20 17\n2d6 3 5").unwrap();
    let rolls = [next().await, next().await, next().await];
    let got: Vec<_> = rolls
        .iter()
        .map(|r| (r.seq, r.die, r.sides, r.value))
        .collect();
    assert_eq!(got, vec![(1, 1, 20, 17), (2, 0, 6, 3), (3, 0, 6, 5)]);

    // A bad line is reported and changes nothing; a reset restarts the sequence numbers.
    writeln!(stdin, "d6 7\nreset\nflip\nd6 6").unwrap();
    let after_reset = next().await;
    assert_eq!((after_reset.seq, after_reset.value), (1, 6));
    assert_ne!(after_reset.device, rolls[0].device);
    assert!(matches!(after_reset.device, TowerRef::Framed { .. }));

    writeln!(stdin, "quit").unwrap();
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success());
    assert!(!port.exists(), "the port is removed on exit");
    drop(link);
}

#[test]
fn tower_sim_prints_counted_and_checked_lines_and_refuses_a_bad_history() {
    let dir = tempfile::tempdir().unwrap();
    let port = dir.path().join("printer");
    let (mut child, mut stdin, _) =
        spawn_tower_sim(&["--text", "--line-counter", "--line-check"], &port);
    let mut tty = serialport::new(port.to_string_lossy(), 115_200)
        .timeout(Duration::from_secs(3))
        .open_native()
        .unwrap();
    writeln!(stdin, "d6 4\n2d6 3 5").unwrap();
    let mut reader = BufReader::new(&mut tty);
    let mut lines = Vec::new();
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        lines.push(line);
    }
    assert_eq!(lines, ["ROLL d6 4 #1 *C8\n", "ROLL 2d6 3 5 #2 *BE\n"]);
    for line in &lines {
        let parsed = firmware_bridge::text::parse_line(line.trim_end().as_bytes())
            .unwrap()
            .unwrap();
        assert!(parsed.checked && parsed.counter.is_some());
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());

    let bad = Command::new(env!("CARGO_BIN_EXE_tower-sim"))
        .args(["--history", "0", "--exit-when-done"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("give 1 to 4096 rolls"));
}
