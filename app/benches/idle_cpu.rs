//! Idle CPU of the window on the table screen: starts the release `tableside` binary under a
//! private `Xvfb` on a match stopped mid-battle (scripts/mid-match.script, resumed at once with
//! `TABLESIDE_RESUME=latest`), waits for it to settle, then reads the process's CPU time
//! (`/proc/<pid>/stat` utime + stime) over 30 s and prints it as a share of one core. Nothing
//! changes on screen in that time, so the window should draw nothing: target ≤ 1 %.
//! It also reports the time to the first frame (as `benches/startup.rs` measures it).
//!
//! ```text
//! cargo bench --workspace --bench idle_cpu
//! ```
//!
//! Needs `Xvfb` (apt `xvfb`); without it the benchmark says so and does nothing. Linux only
//! (`/proc`).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the CPU time is measured.
const WINDOW: Duration = Duration::from_secs(30);
/// How long the window is left to settle first (fonts, first frames, resume).
const SETTLE: Duration = Duration::from_secs(5);

/// Kills the child when dropped.
struct Guard(Child);
impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// utime + stime of a process, in clock ticks (fields 14 and 15 of `/proc/<pid>/stat`).
fn cpu_ticks(pid: u32) -> Result<u64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, r)| r)
        .ok_or("unreadable /proc stat")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After ")": state is field 3, so utime (14) and stime (15) are at 11 and 12.
    let num = |i: usize| -> Result<u64, String> {
        fields
            .get(i)
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("no field {} in /proc/{pid}/stat", i + 3))
    };
    Ok(num(11)? + num(12)?)
}

/// Clock ticks per second (`getconf CLK_TCK`, 100 on Linux when it cannot be asked).
fn ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

fn start_xvfb() -> Result<(Guard, String), Box<dyn std::error::Error>> {
    for n in 220..320 {
        if Path::new(&format!("/tmp/.X{n}-lock")).exists()
            || Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        {
            continue;
        }
        let display = format!(":{n}");
        let mut x = Guard(
            Command::new("Xvfb")
                .args([
                    display.as_str(),
                    "-screen",
                    "0",
                    "1280x800x24",
                    "-nolisten",
                    "tcp",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()?,
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = x.0.try_wait() {
                break;
            }
            if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
                return Ok((x, display));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    Err("no free X display between :220 and :319".into())
}

/// The first-frame time the binary reports with `TABLESIDE_EXIT_AFTER_FIRST_FRAME`.
fn first_frame_ms(display: &str, data: &Path) -> Result<f64, Box<dyn std::error::Error>> {
    let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data)
        .env("DISPLAY", display)
        .env("TABLESIDE_RESUME", "latest")
        .env("TABLESIDE_EXIT_AFTER_FIRST_FRAME", "1")
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| {
            l.strip_prefix("first frame after ")?
                .strip_suffix(" ms")?
                .parse::<f64>()
                .ok()
        })
        .ok_or_else(|| {
            format!(
                "no first frame reported; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
            .into()
        })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if Command::new("Xvfb")
        .arg("-help")
        .stderr(Stdio::null())
        .status()
        .is_err()
    {
        println!("idle_cpu benchmark skipped: Xvfb is not installed (apt-get install xvfb)");
        return Ok(());
    }
    let (_x, display) = start_xvfb()?;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR"))?;
    let data = dir.path().join("data");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mid-match.script");
    let played = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .args(["play", "--game", "jaken", "--script"])
        .arg(&script)
        .arg("--data-dir")
        .arg(&data)
        .output()?;
    if !played.status.success() {
        return Err(format!(
            "tableside play failed: {}",
            String::from_utf8_lossy(&played.stderr)
        )
        .into());
    }

    let first = first_frame_ms(&display, &data)?;
    println!("idle table screen (battle 3, Jaken) under Xvfb (llvmpipe), release build:");
    println!("  time to first frame (table screen, resumed match): {first:.1} ms");
    let mut above = false;
    // No tower; a tower asked for that is not there (searched for, then a port that does not
    // exist): the window must not wake for the link's retries.
    for (what, tower) in [
        ("no tower", None),
        ("tower auto, none plugged in", Some("auto")),
        (
            "tower at a port that does not exist",
            Some("/dev/ttyTABLESIDE-ABSENT"),
        ),
    ] {
        let percent = idle_percent(&display, &data, tower)?;
        println!(
            "  {what}: {percent:.2} % of one core over {:.0} s idle (target ≤ 1 %)",
            WINDOW.as_secs_f64()
        );
        above |= percent > 1.0;
    }
    if above {
        println!("  ABOVE TARGET");
    }
    Ok(())
}

/// The window's CPU share of one core over [`WINDOW`] after [`SETTLE`], resumed on the match in
/// `data`, with `tower` (`--tower`) when given.
fn idle_percent(
    display: &str,
    data: &Path,
    tower: Option<&str>,
) -> Result<f64, Box<dyn std::error::Error>> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tableside"));
    cmd.arg("--data-dir").arg(data);
    if let Some(t) = tower {
        cmd.args(["--tower", t]);
    }
    let mut app = Guard(
        cmd.env("DISPLAY", display)
            .env("TABLESIDE_RESUME", "latest")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?,
    );
    let pid = app.0.id();
    std::thread::sleep(SETTLE);
    let hz = ticks_per_second();
    let t0 = Instant::now();
    let before = cpu_ticks(pid)?;
    std::thread::sleep(WINDOW);
    let after = cpu_ticks(pid)?;
    let wall = t0.elapsed().as_secs_f64();
    // A window that died would use no CPU either: it must still be running.
    if let Some(status) = app.0.try_wait()? {
        return Err(format!("tableside exited during the measurement ({status})").into());
    }
    Ok((after - before) as f64 / hz / wall * 100.0)
}
