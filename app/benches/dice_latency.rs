//! Latency of a tower roll from the simulated tower writing its frame to the pty, to the match
//! holding it: the host link decodes it on its own thread, the app turns it into a match input,
//! the store makes it durable (WAL + fsync) and the match layer applies it. 10,000 rolls, each
//! thrown once the previous one is in the match, as dice at a table are.
//!
//! ```text
//! cargo bench --workspace --bench dice_latency            # 10,000 rolls
//! ROLLS=1000 cargo bench --workspace --bench dice_latency
//! ```
//! Target (issue 3): p99 ≤ 2 ms. The file goes under the target folder (a real disk, not tmpfs).

use firmware_bridge::link::{Link, LinkConfig, LinkState, StartFrom};
use firmware_bridge::sim::{Command, Sim, SimConfig, SimEvent};
use std::time::{Duration, Instant};
use tableside::dice::{core_roll, roll_input};
use tableside::session::Session;
use tableside::store::Store;

/// The same allocator as the `tableside` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const WARMUP: usize = 100;
const PAUSE: Duration = Duration::from_micros(500);

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}

fn main() -> Result<()> {
    let rolls: usize = std::env::var("ROLLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR"))?;
    let cat = cards::catalogue::Catalogue::jaken_demo()?;
    let header = cards::games::jaken::demo_header(&cat, ["Aki", "Ben"], ["lantern", "gale"])?;
    let mut session = Session::start(Store::open(&dir.path().join("tableside.sqlite3"))?, header)?;

    let mut sim = Sim::spawn(SimConfig {
        record_events: true,
        seed: Some(1),
        ..SimConfig::default()
    })?;
    let events = sim.take_events().ok_or("the simulator records no events")?;
    let mut link = Link::start(LinkConfig {
        start: StartFrom::Held,
        ..LinkConfig::path(sim.path())
    })?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let mut health = link.watch_health();
    rt.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(5),
            health.wait_for(|h| h.state == LinkState::Connected),
        )
        .await
    })
    .map_err(|_| "the link did not connect")??;

    let mut samples = Vec::with_capacity(rolls);
    for i in 0..WARMUP + rolls {
        let value = (i % 6) as u8 + 1;
        sim.send(Command::Roll { sides: 6, value })?;
        let roll = rt
            .block_on(async { tokio::time::timeout(Duration::from_secs(2), link.recv()).await })
            .map_err(|_| format!("roll {i} lost"))?
            .ok_or("the link stopped")?;
        let before = session.game().len();
        session.submit(&roll_input(&core_roll(&hardware::dice::DiceRoll::from(
            &roll,
        ))))?;
        let in_match = Instant::now();
        if session.game().len() != before + 1 {
            return Err(format!("roll {i} is not in the match").into());
        }
        let written = events
            .iter()
            .find_map(|e| match e {
                SimEvent::Rolled {
                    seq, written_at, ..
                } if seq == roll.seq => written_at,
                _ => None,
            })
            .ok_or("no write time")?;
        if i >= WARMUP {
            samples.push(in_match.duration_since(written));
        }
        std::thread::sleep(PAUSE);
    }
    link.stop();
    samples.sort();
    println!(
        "tower roll → match state (durable), {rolls} rolls: min {:?} median {:?} p90 {:?} p99 {:?} max {:?} (target p99 ≤ 2 ms)",
        samples.first().copied().unwrap_or_default(),
        percentile(&samples, 0.5),
        percentile(&samples, 0.9),
        percentile(&samples, 0.99),
        samples.last().copied().unwrap_or_default(),
    );
    Ok(())
}
