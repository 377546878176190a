//! Cold start to first frame: starts the release `tableside` binary under a private `Xvfb`
//! (with an empty data folder), and reads the time it reports once its first frame is built
//! (`TABLESIDE_EXIT_AFTER_FIRST_FRAME`), and the wall time until the process has exited.
//!
//! ```text
//! cargo bench --workspace --bench startup
//! ```
//!
//! Needs `Xvfb` (apt `xvfb`); without it the benchmark says so and does nothing.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 9;

struct Xvfb(Child);
impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if Command::new("Xvfb")
        .arg("-help")
        .stderr(Stdio::null())
        .status()
        .is_err()
    {
        println!("startup benchmark skipped: Xvfb is not installed (apt-get install xvfb)");
        return Ok(());
    }
    let display = format!(":{}", 150 + std::process::id() % 50);
    let _x = Xvfb(
        Command::new("Xvfb")
            .args([
                display.as_str(),
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stderr(Stdio::null())
            .spawn()?,
    );
    std::thread::sleep(Duration::from_millis(800));
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR"))?;
    let mut reported = Vec::new();
    let mut wall = Vec::new();
    for run in 0..RUNS {
        // A fresh data folder each time: the store is created from nothing, as on a first start.
        let data = dir.path().join(format!("run{run}"));
        let t0 = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
            .arg("--data-dir")
            .arg(&data)
            .env("DISPLAY", &display)
            .env("TABLESIDE_EXIT_AFTER_FIRST_FRAME", "1")
            .output()?;
        wall.push(t0.elapsed());
        let text = String::from_utf8_lossy(&out.stdout);
        let ms = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("first frame after ")?
                    .strip_suffix(" ms")?
                    .parse::<f64>()
                    .ok()
            })
            .ok_or_else(|| {
                format!(
                    "run {run}: no first frame reported; stderr: {}",
                    String::from_utf8_lossy(&out.stderr)
                )
            })?;
        reported.push(ms);
    }
    reported.sort_by(f64::total_cmp);
    wall.sort();
    println!("cold start to first frame, {RUNS} runs under Xvfb (llvmpipe), empty data folder:");
    println!(
        "  process start → first frame built: median {:.1} ms (min {:.1}, max {:.1})",
        reported[RUNS / 2],
        reported[0],
        reported[RUNS - 1]
    );
    println!(
        "  spawn → process exited after its first frame: median {:.1?}",
        wall[RUNS / 2]
    );
    Ok(())
}
