//! `scan-bench`: recall, false results and decode time of the QR detector on directories of
//! images with their expected payloads (`<name>.png|jpg` beside `<name>.txt`; an image without a
//! `.txt` expects no code, so anything read there is a false result).
//!
//! Prints one row per directory (images, recall, false results, mean / median / p95 / max ms per
//! image, `rqrr` panics contained, and with `--baseline` plain `rqrr` for comparison), then the
//! same per image resolution across all directories. Without directories it reads ZXing's real
//! photos, `../shared/bench/qr-real/qrcode-1 … 4` beside the workspace (skipped with a message
//! when absent). `--rotate` also reads every image turned 90°, 180° and 270°, as ZXing does;
//! `--verbose` lists the misses and false results.
//!
//! `cargo bench --workspace --bench scan-bench [-- --rotate --baseline --verbose] [DIR …]`

use hardware::vision::detect::Detector;
use hardware::vision::source::{DirSource, FrameSource};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn plain_rqrr(img: &image::GrayImage, panics: &mut usize) -> Vec<String> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut prepared = rqrr::PreparedImage::prepare(img.clone());
        let grids = prepared.detect_grids();
        let mut texts = Vec::new();
        let mut inner = 0;
        for g in &grids {
            match catch_unwind(AssertUnwindSafe(|| g.decode())) {
                Ok(Ok((_, t))) => texts.push(t),
                Ok(Err(_)) => {}
                Err(_) => inner += 1,
            }
        }
        (texts, inner)
    }));
    match result {
        Ok((texts, inner)) => {
            *panics += inner;
            texts
        }
        Err(_) => {
            *panics += 1;
            Vec::new()
        }
    }
}

/// Reads of one group (a directory or a resolution).
#[derive(Default)]
struct Tally {
    reads: usize,
    /// Reads of images that carry a code (recall counts these).
    with_code: usize,
    hits: usize,
    false_results: usize,
    base_hits: usize,
    times: Vec<f64>,
}

impl Tally {
    fn row(&self, name: &str, panics: Option<usize>, baseline: bool, base_panics: usize) {
        let n = self.reads.max(1) as f64;
        let mut sorted = self.times.clone();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let i = ((sorted.len() as f64 - 1.0) * q).round().max(0.0) as usize;
            sorted.get(i).copied().unwrap_or(0.0)
        };
        println!(
            "{:<12} {:>6} {:>7.0}% {:>6} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>7} {:>10}",
            name,
            self.reads,
            100.0 * self.hits as f64 / self.with_code.max(1) as f64,
            self.false_results,
            self.times.iter().sum::<f64>() / n,
            at(0.5),
            at(0.95),
            sorted.last().copied().unwrap_or(0.0),
            panics.map_or_else(|| "-".to_owned(), |p| p.to_string()),
            if baseline {
                format!(
                    "{:.0}% ({} p)",
                    100.0 * self.base_hits as f64 / self.with_code.max(1) as f64,
                    base_panics
                )
            } else {
                "-".into()
            },
        );
    }
}

fn header(first: &str) {
    println!(
        "{:<12} {:>6} {:>8} {:>6} {:>8} {:>8} {:>8} {:>8} {:>7} {:>10}",
        first, "reads", "recall", "false", "mean ms", "median", "p95", "max ms", "panics", "rqrr"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let baseline = args.iter().any(|a| a == "--baseline");
    let verbose = args.iter().any(|a| a == "--verbose");
    // As upstream ZXing does: every image also turned 90°, 180° and 270°.
    let rotations = if args.iter().any(|a| a == "--rotate") {
        4
    } else {
        1
    };
    // `cargo bench` passes `--bench`; every other word not starting with `--` is a directory.
    let mut dirs: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if dirs.is_empty() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/bench/qr-real");
        if !root.is_dir() {
            println!(
                "scan-bench: {} not found; skipped (the photos live outside the repository; \
                 name image directories to read others)",
                root.display()
            );
            return;
        }
        dirs = ["qrcode-1", "qrcode-2", "qrcode-3", "qrcode-4"]
            .iter()
            .map(|s| root.join(s))
            .collect();
    }
    // Silence the default hook for the baseline's own catch_unwind too (the detector silences
    // its own); keep messages of other panics.
    if baseline {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let mut by_size: BTreeMap<(u32, u32), Tally> = BTreeMap::new();
    let mut total_base_panics = 0;
    header("set");
    for dir in &dirs {
        let set = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut source = match DirSource::open(dir) {
            Ok(s) => s,
            Err(e) => {
                println!("{set}: {e}");
                continue;
            }
        };
        let paths: Vec<PathBuf> = source.remaining().map(Path::to_path_buf).collect();
        let detector = Detector::default();
        let mut tally = Tally::default();
        let mut base_panics = 0usize;
        let mut notes = Vec::new();
        for path in &paths {
            let frame = match source.next_frame() {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    println!("  {e}");
                    continue;
                }
            };
            let expected = std::fs::read_to_string(path.with_extension("txt")).ok();
            for turn in 0..rotations {
                let image = match turn {
                    1 => image::imageops::rotate90(&frame.image),
                    2 => image::imageops::rotate180(&frame.image),
                    3 => image::imageops::rotate270(&frame.image),
                    _ => frame.image.clone(),
                };
                let before = detector.panics_contained();
                let t = Instant::now();
                let found = detector.detect(&image);
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                if detector.panics_contained() > before {
                    println!(
                        "    panic contained: {} turned {}°",
                        path.display(),
                        turn * 90
                    );
                }
                let hit = expected
                    .as_ref()
                    .is_some_and(|e| found.iter().any(|d| &d.text == e));
                let wrong: Vec<String> = found
                    .iter()
                    .filter(|d| Some(&d.text) != expected.as_ref())
                    .map(|d| d.text.chars().take(30).collect())
                    .collect();
                let base_hit = baseline
                    && expected
                        .as_ref()
                        .is_some_and(|e| plain_rqrr(&image, &mut base_panics).contains(e));
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if expected.is_some() && !hit {
                    notes.push(format!("miss {name} {}°: read {wrong:?}", turn * 90));
                } else if !wrong.is_empty() {
                    notes.push(format!("false {name} {}°: read {wrong:?}", turn * 90));
                }
                let size = (image.width(), image.height());
                for t in [&mut tally, by_size.entry(size).or_default()] {
                    t.reads += 1;
                    t.with_code += usize::from(expected.is_some());
                    t.hits += usize::from(hit);
                    t.false_results += wrong.len();
                    t.base_hits += usize::from(base_hit);
                    t.times.push(ms);
                }
            }
        }
        tally.row(
            &set,
            Some(detector.panics_contained()),
            baseline,
            base_panics,
        );
        total_base_panics += base_panics;
        if verbose {
            for n in notes {
                println!("    {n}");
            }
        }
    }
    println!();
    header("resolution");
    for ((w, h), t) in &by_size {
        t.row(&format!("{w}x{h}"), None, baseline, total_base_panics);
    }
}
