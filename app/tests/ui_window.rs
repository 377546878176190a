//! The real `tableside` binary opens its window: started under a private Xvfb display, with a
//! fresh `--data-dir`, it draws a non-blank screen and opens the store in that folder.
//!
//! Skipped (with a notice) when `Xvfb` or ImageMagick's `import` is not installed; CI installs
//! both (`.ci/run`). The screenshot is left in `target/ui-window/start.png` for a look.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills a child process when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn on_path(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(tool))
        .find(|p| p.is_file())
}

/// Starts Xvfb on the first free display from :120 on; returns the guard and the display.
fn start_xvfb(size: &str) -> Result<(Guard, String), String> {
    for n in 120..220 {
        if Path::new(&format!("/tmp/.X{n}-lock")).exists()
            || Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        {
            continue;
        }
        let child = Command::new("Xvfb")
            .args([
                format!(":{n}"),
                "-screen".into(),
                "0".into(),
                format!("{size}x24"),
                "-nolisten".into(),
                "tcp".into(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("Xvfb does not start: {e}"))?;
        let mut guard = Guard(child);
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = guard.0.try_wait() {
                break; // display taken after all: try the next one
            }
            if socket.exists() {
                return Ok((guard, format!(":{n}")));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        drop(guard);
    }
    Err("no free X display between :120 and :219".to_owned())
}

/// The screen as (width, height, RGB bytes), read from `import`'s binary PPM.
fn grab(display: &str) -> Option<(usize, usize, Vec<u8>)> {
    let out = Command::new("import")
        .args([
            "-display", display, "-window", "root", "-depth", "8", "ppm:-",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    parse_ppm(&out.stdout)
}

/// Reads a binary (P6, 8-bit) PPM: "P6 <w> <h> <max>\n" then RGB triples.
fn parse_ppm(bytes: &[u8]) -> Option<(usize, usize, Vec<u8>)> {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes.get(i)?.is_ascii_whitespace() {
            i += 1;
        }
        if *bytes.get(i)? == b'#' {
            while *bytes.get(i)? != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        while !bytes.get(i)?.is_ascii_whitespace() {
            i += 1;
        }
        fields.push(std::str::from_utf8(&bytes[start..i]).ok()?.to_owned());
    }
    i += 1; // the single whitespace after the maximum value
    if fields[0] != "P6" || fields[3] != "255" {
        return None;
    }
    let (w, h): (usize, usize) = (fields[1].parse().ok()?, fields[2].parse().ok()?);
    let pixels = bytes.get(i..i + w * h * 3)?.to_vec();
    Some((w, h, pixels))
}

fn distinct_colours(rgb: &[u8]) -> usize {
    rgb.chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect::<HashSet<_>>()
        .len()
}

#[test]
fn ppm_reader_reads_what_import_writes() {
    let mut ppm = b"P6\n# a comment\n2 1\n255\n".to_vec();
    ppm.extend_from_slice(&[255, 0, 0, 0, 0, 255]);
    let (w, h, rgb) = parse_ppm(&ppm).unwrap();
    assert_eq!((w, h), (2, 1));
    assert_eq!(distinct_colours(&rgb), 2);
    assert!(
        parse_ppm(b"P6\n2 1\n255\n\x00\x00").is_none(),
        "truncated pixels are refused"
    );
}

#[test]
fn the_window_opens_and_draws_the_start_screen() {
    for tool in ["Xvfb", "import"] {
        if on_path(tool).is_none() {
            eprintln!(
                "NOTICE: skipping the window test: `{tool}` is not installed (apt-get install -y xvfb imagemagick)"
            );
            return;
        }
    }
    let (_xvfb, display) = start_xvfb("1280x800").unwrap();
    let blank = grab(&display).expect("import can read the empty display");
    assert!(
        distinct_colours(&blank.2) <= 2,
        "an empty Xvfb screen is one colour"
    );

    let data = tempfile::tempdir().unwrap();
    let app = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data.path())
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tableside starts");
    let mut app = Guard(app);

    // Wait for the window to be drawn: text on a panel gives hundreds of colours.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = 0;
    let shot = loop {
        if let Ok(Some(status)) = app.0.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = app.0.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut e, &mut err);
            }
            panic!("tableside exited early ({status}): {err}");
        }
        if let Some(shot) = grab(&display) {
            last = distinct_colours(&shot.2);
            if last > 64 {
                break shot;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the window did not draw within 60 s ({last} colours on screen)"
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    assert_eq!((shot.0, shot.1), (1280, 800));
    assert!(last > 64, "{last} colours");
    // The window opened the store in the data folder it was given.
    assert!(
        data.path().join("tableside.sqlite3").is_file(),
        "the store was created in --data-dir"
    );

    // Keep a PNG for people to look at.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ui-window");
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = Command::new("import")
            .args(["-display", &display, "-window", "root"])
            .arg(dir.join("start.png"))
            .status();
    }
}
