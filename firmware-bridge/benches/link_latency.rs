//! Latency of a roll from the simulated tower writing its frame to the pty, to the host link
//! handing it to the app (the consumer's `recv` returning), over 10,000 rolls.
//!
//! The link runs as the app runs it: [`Link::start`] on its own `tower-link` thread; the
//! consumer is another thread. Each roll is thrown after the previous one arrived and a short
//! pause, so each finds the link idle, as dice at a table do.
//!
//! ```text
//! cargo bench --workspace --bench link_latency            # 10,000 rolls
//! ROLLS=1000 cargo bench --workspace --bench link_latency
//! ```
//! Target: p99 ≤ 2 ms. Exits non-zero if a roll is lost or the target is missed.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use firmware_bridge::link::{Link, LinkConfig, LinkState, StartFrom};
use firmware_bridge::sim::{Command, Sim, SimConfig, SimEvent};

const TARGET_P99: Duration = Duration::from_millis(2);
const WARMUP: usize = 100;
const PAUSE: Duration = Duration::from_micros(500);

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}

fn report(name: &str, mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let mean = samples.iter().sum::<Duration>() / samples.len().max(1) as u32;
    let p99 = percentile(&samples, 0.99);
    println!(
        "{name}: n={} min={:?} median={:?} mean={:?} p90={:?} p99={:?} p99.9={:?} max={:?}",
        samples.len(),
        samples.first().copied().unwrap_or_default(),
        percentile(&samples, 0.5),
        mean,
        percentile(&samples, 0.9),
        p99,
        percentile(&samples, 0.999),
        samples.last().copied().unwrap_or_default(),
    );
    p99
}

fn main() -> ExitCode {
    let rolls: usize = std::env::var("ROLLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let mut sim = match Sim::spawn(SimConfig {
        record_events: true,
        seed: Some(1),
        ..SimConfig::default()
    }) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("cannot start the simulator: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(events) = sim.take_events() else {
        return ExitCode::FAILURE;
    };
    let config = LinkConfig {
        start: StartFrom::Held,
        ..LinkConfig::path(sim.path())
    };
    let mut link = match Link::start(config) {
        Ok(link) => link,
        Err(e) => {
            eprintln!("cannot start the link: {e}");
            return ExitCode::FAILURE;
        }
    };
    let consumer = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut health = link.watch_health();
    let connected = consumer.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(5),
            health.wait_for(|h| h.state == LinkState::Connected),
        )
        .await
        .is_ok()
    });
    if !connected {
        eprintln!("the link did not connect: {:#?}", link.health());
        return ExitCode::FAILURE;
    }

    let mut end_to_end = Vec::with_capacity(rolls);
    let mut to_decode = Vec::with_capacity(rolls);
    let started = Instant::now();
    for i in 0..WARMUP + rolls {
        let value = (i % 6) as u8 + 1;
        if sim.send(Command::Roll { sides: 6, value }).is_err() {
            eprintln!("simulator stopped");
            return ExitCode::FAILURE;
        }
        let got = consumer
            .block_on(async { tokio::time::timeout(Duration::from_secs(2), link.recv()).await });
        let delivered = Instant::now();
        let Ok(Some(roll)) = got else {
            eprintln!("roll {i} lost: {:#?}", link.health());
            return ExitCode::FAILURE;
        };
        let written = events.iter().find_map(|e| match e {
            SimEvent::Rolled {
                seq, written_at, ..
            } if seq == roll.seq => written_at,
            _ => None,
        });
        let Some(written) = written else {
            eprintln!("no write time for roll {}", roll.seq);
            return ExitCode::FAILURE;
        };
        if roll.value != value {
            eprintln!("roll {i}: wrong value");
            return ExitCode::FAILURE;
        }
        if i >= WARMUP {
            end_to_end.push(delivered.duration_since(written));
            to_decode.push(roll.received_at.duration_since(written));
        }
        std::thread::sleep(PAUSE);
    }
    let elapsed = started.elapsed();
    let health = link.health();
    link.stop();
    println!(
        "{rolls} rolls (+{WARMUP} warm-up) in {elapsed:?}, one at a time with {PAUSE:?} pauses; \
         link: {} delivered, {} duplicates, {} refused frames",
        health.rolls,
        health.duplicates,
        health.errors.frames()
    );
    report("sim write -> link decoded  ", to_decode);
    let p99 = report("sim write -> app received  ", end_to_end);
    if p99 <= TARGET_P99 {
        println!("p99 {p99:?} <= target {TARGET_P99:?}: PASS");
        ExitCode::SUCCESS
    } else {
        println!("p99 {p99:?} > target {TARGET_P99:?}: FAIL");
        ExitCode::FAILURE
    }
}
