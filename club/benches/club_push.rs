//! 50 simulated kiosks pushing 2,000 matches each at once to one `tableside-club` on localhost
//! (over a throwaway PostgreSQL): every match stored and verified by the server's replay;
//! throughput in entries/s, push latency (median, p99, max), and the server's memory over time.
//!
//! `cargo bench --workspace --bench club_push [-- --kiosks 50 --matches 2000]`
//! Each match is the whole Jaken demo match (83 entries), pushed in one request.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use club::testing::{DemoLog, PgCluster, add_kiosk, block_on, free_port, init, wait_for_port};
use club_protocol::{catalogue_path, catalogue_sha256, push_path};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let kiosks = arg("--kiosks", 50);
    let matches = arg("--matches", 2000);
    let pg = PgCluster::start().unwrap();
    let db = pg.database("bench_push").unwrap();
    init(&db, "Asia/Tokyo").unwrap();
    let tokens: Vec<String> = (1..=kiosks)
        .map(|k| add_kiosk(&db, &format!("table-{k}")).unwrap())
        .collect();
    let port = free_port().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_tableside-club"))
        .args([
            "--database",
            &db,
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--connections",
            "24",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    assert!(wait_for_port(port, Duration::from_secs(30)));
    let base = format!("http://127.0.0.1:{port}");
    let demo = Arc::new(DemoLog::jaken().unwrap());
    let per_match = demo.inputs.len();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let sha = catalogue_sha256(demo.catalogue);
    let resp = agent
        .put(&format!("{base}{}", catalogue_path(&sha)))
        .header("Authorization", &format!("Bearer {}", tokens[0]))
        .send(demo.catalogue)
        .unwrap();
    assert_eq!(resp.status().as_u16(), 204);

    // The server's memory, every half second.
    let done = Arc::new(AtomicBool::new(false));
    let pushed = Arc::new(AtomicU64::new(0));
    let pid = server.id();
    let sampler = {
        let (done, pushed) = (done.clone(), pushed.clone());
        std::thread::Builder::new()
            .name("rss-sampler".into())
            .spawn(move || {
                let mut samples = Vec::new();
                let begun = Instant::now();
                while !done.load(Ordering::SeqCst) {
                    let n = pushed.load(Ordering::SeqCst);
                    if let Some(kib) = rss_kib(pid) {
                        samples.push((n, kib));
                    }
                    // A line a minute: a long run stopped early still says how far it got.
                    if samples.len() % 120 == 119 {
                        let s = begun.elapsed().as_secs_f64();
                        eprintln!(
                            "progress: {n} matches ({} entries) in {s:.0} s, {:.0} entries/s, server RSS {:.1} MiB",
                            n * per_match as u64,
                            (n * per_match as u64) as f64 / s,
                            samples.last().map_or(0.0, |(_, k)| *k as f64 / 1024.0)
                        );
                    }
                    std::thread::sleep(Duration::from_millis(500));
                }
                samples
            })
            .unwrap()
    };
    let names = ["Aki", "Ben", "Cho", "Dan", "Eri", "Fumi", "Gen", "Hana"];
    let start = Instant::now();
    let workers: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(k, token)| {
            let (demo, base, token, pushed) =
                (demo.clone(), base.clone(), token.clone(), pushed.clone());
            std::thread::Builder::new()
                .name(format!("kiosk-{k}"))
                .spawn(move || {
                    let agent: ureq::Agent = ureq::Agent::config_builder()
                        .http_status_as_error(false)
                        .timeout_global(Some(Duration::from_secs(120)))
                        .build()
                        .into();
                    let kiosk = format!("table-{}", k + 1);
                    let mut latencies = Vec::with_capacity(matches);
                    let mut failures = 0u32;
                    for m in 0..matches {
                        let a = format!("{} {}", names[m % 8], k);
                        let b = format!("{} {}", names[(m + 3) % 8], k);
                        let req = demo.push(&[&a, &b], 0..demo.inputs.len());
                        let body = serde_json::to_string(&req).unwrap();
                        let t = Instant::now();
                        let r = agent
                            .put(&format!("{base}{}", push_path(&kiosk, m as i64 + 1)))
                            .header("Authorization", &format!("Bearer {token}"))
                            .content_type("application/json")
                            .send(&body);
                        match r {
                            Ok(mut resp) if resp.status().as_u16() == 200 => {
                                let _ = resp.body_mut().read_to_string();
                                latencies.push(t.elapsed());
                                pushed.fetch_add(1, Ordering::SeqCst);
                            }
                            Ok(mut resp) => {
                                failures += 1;
                                if failures < 3 {
                                    eprintln!(
                                        "{kiosk} #{m}: HTTP {} {}",
                                        resp.status(),
                                        resp.body_mut().read_to_string().unwrap_or_default()
                                    );
                                }
                            }
                            Err(e) => {
                                failures += 1;
                                if failures < 3 {
                                    eprintln!("{kiosk} #{m}: {e}");
                                }
                            }
                        }
                    }
                    (latencies, failures)
                })
                .unwrap()
        })
        .collect();
    let mut latencies = Vec::new();
    let mut failures = 0;
    for w in workers {
        let (l, f) = w.join().unwrap();
        latencies.extend(l);
        failures += f;
    }
    let wall = start.elapsed();
    done.store(true, Ordering::SeqCst);
    let samples = sampler.join().unwrap();
    latencies.sort();

    // Everything stored and verified (the outcome is the server's replay's).
    let (stored, entries, finished): (i64, i64, i64) = block_on(async {
        let (c, conn) = tokio_postgres::connect(&db, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(conn);
        let r = c
            .query_one(
                "SELECT count(*), coalesce(sum(entry_count), 0)::bigint, count(*) FILTER (WHERE result = 'win')
                 FROM matches",
                &[],
            )
            .await
            .unwrap();
        (r.get(0), r.get(1), r.get(2))
    });
    let _ = server.kill();
    let _ = server.wait();

    let total = (kiosks * matches) as i64;
    let total_entries = total * per_match as i64;
    println!("club_push: {kiosks} kiosks x {matches} matches x {per_match} entries, all at once");
    println!(
        "stored {stored} of {total} matches, {entries} of {total_entries} entries; {finished} finished by the server's replay; {failures} failed pushes"
    );
    println!(
        "wall {:.1} s; {:.0} entries/s; {:.0} matches/s",
        wall.as_secs_f64(),
        entries as f64 / wall.as_secs_f64(),
        stored as f64 / wall.as_secs_f64()
    );
    println!(
        "push latency (one whole match): median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    if let (Some(first), Some(last)) = (
        samples.iter().find(|(p, _)| *p as i64 >= total / 10),
        samples.last(),
    ) {
        let max = samples.iter().map(|(_, k)| *k).max().unwrap_or(0);
        println!(
            "server RSS: {:.1} MiB after 10 % of the pushes, {:.1} MiB at the end, {:.1} MiB at most ({} samples)",
            first.1 as f64 / 1024.0,
            last.1 as f64 / 1024.0,
            max as f64 / 1024.0,
            samples.len()
        );
        let deciles: Vec<String> = (1..=10)
            .filter_map(|d| samples.iter().find(|(p, _)| *p as i64 >= total * d / 10))
            .map(|(_, k)| format!("{:.0}", *k as f64 / 1024.0))
            .collect();
        println!(
            "server RSS (MiB) at each tenth of the pushes: {}",
            deciles.join(" ")
        );
    }
    assert_eq!(
        (stored, entries, finished),
        (total, total_entries, total),
        "not everything was stored and verified"
    );
}
