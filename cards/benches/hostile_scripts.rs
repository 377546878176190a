//! Hostile-script costs (issue 21 item 7), reported as numbers:
//! - 10^6 free rolls through the match layer: peak memory (VmHWM) and time;
//! - 100,000 `player` lines: time to the refusal;
//! - a line of 20,000 nested `refused`: time to the refusal.
//!
//! `cargo bench --workspace --bench hostile_scripts` (run it alone: VmHWM is the process's peak).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::matches::new_match;
use cards::script::Script;
use std::time::Instant;

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

fn main() {
    let before = peak_rss_mib();
    let cat = Catalogue::builtin(GameId::Yomi).unwrap();
    let header = Script::parse(
        "game yomi\ncatalogue yomi-demo\nplayer Aki deck=akane\nplayer Ben deck=gou\n",
    )
    .unwrap()
    .header(&cat)
    .unwrap();
    let mut m = new_match(header, &cat).unwrap();
    let n = 1_000_000;
    m.reserve(n);
    let roll = serde_json::json!({"input": "roll", "roll": {"sides": 20, "value": 7, "source": {"kind": "virtual"}}});
    let t = Instant::now();
    for _ in 0..n {
        let p = m.prepare_json(&roll).unwrap();
        m.commit_json(&p.json).unwrap();
    }
    let dt = t.elapsed();
    println!(
        "1e6 free rolls: {:.2} s, peak RSS {:.0} MiB (before {:.0} MiB), {:.0} bytes per entry",
        dt.as_secs_f64(),
        peak_rss_mib(),
        before,
        (peak_rss_mib() - before) * 1024.0 * 1024.0 / n as f64
    );
    drop(m);

    let mut text = String::from("game space-junk\n");
    for i in 0..100_000 {
        text.push_str(&format!("player P{i} deck=x\n"));
    }
    let t = Instant::now();
    let e = Script::parse(&text).unwrap_err();
    println!(
        "100,000 player lines: refused at line {} in {:.3} ms",
        e.line,
        t.elapsed().as_secs_f64() * 1e3
    );

    let line = "refused jaken.summon-cost ".repeat(20_000) + "move compare";
    let t = Instant::now();
    let e = Script::parse(&format!("game jaken\nplayer A deck=lantern\n{line}\n")).unwrap_err();
    println!(
        "20,000 nested refused: refused in {:.3} ms ({} bytes of message)",
        t.elapsed().as_secs_f64() * 1e3,
        e.to_string().len()
    );
}
