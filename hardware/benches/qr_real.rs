//! Recall and time of the QR detector on real photos: ZXing's black-box sets qrcode-1 … 4,
//! read from `../shared/bench/qr-real` beside the workspace (skipped with a message when
//! absent). `--rotate` also reads every image turned 90°, 180° and 270°, as ZXing does. Prints, per set, the share of images whose expected text was read, the time per
//! image, and how many `rqrr` panics were contained; `--baseline` also runs plain `rqrr` (its own
//! threshold, one pass) for comparison; `--verbose` lists the misses.
//!
//! `cargo bench --workspace --bench qr_real [-- --baseline --verbose]`

use hardware::vision::detect::Detector;
use hardware::vision::source::{DirSource, FrameSource};
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let baseline = args.iter().any(|a| a == "--baseline");
    let verbose = args.iter().any(|a| a == "--verbose");
    // As upstream ZXing does: every image also turned 90°, 180° and 270°.
    let rotations = if args.iter().any(|a| a == "--rotate") {
        4
    } else {
        1
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/bench/qr-real");
    if !root.is_dir() {
        println!(
            "qr_real: {} not found; skipped (the photos live outside the repository)",
            root.display()
        );
        return;
    }
    // Silence the default hook for the baseline's own catch_unwind too (the detector silences
    // its own); keep messages of other panics.
    if baseline {
        std::panic::set_hook(Box::new(|_| {}));
    }
    println!(
        "{:<10} {:>6} {:>8} {:>9} {:>9} {:>9} {:>7} {:>9}",
        "set", "images", "recall", "mean ms", "median", "max ms", "panics", "rqrr"
    );
    for set in ["qrcode-1", "qrcode-2", "qrcode-3", "qrcode-4"] {
        let dir = root.join(set);
        let mut source = match DirSource::open(&dir) {
            Ok(s) => s,
            Err(e) => {
                println!("{set}: {e}");
                continue;
            }
        };
        let paths: Vec<PathBuf> = source.remaining().map(Path::to_path_buf).collect();
        let detector = Detector::default();
        let (mut hits, mut base_hits, mut base_panics) = (0usize, 0usize, 0usize);
        let mut times = Vec::new();
        let mut misses = Vec::new();
        for path in &paths {
            let frame = match source.next_frame() {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    println!("  {e}");
                    continue;
                }
            };
            let Ok(expected) = std::fs::read_to_string(path.with_extension("txt")) else {
                continue;
            };
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
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                if detector.panics_contained() > before {
                    println!(
                        "    panic contained: {} turned {}°",
                        path.display(),
                        turn * 90
                    );
                }
                if found.iter().any(|d| d.text == expected) {
                    hits += 1;
                } else {
                    misses.push(format!(
                        "{} {}° ({}x{}): read {:?}",
                        path.file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default(),
                        turn * 90,
                        frame.image.width(),
                        frame.image.height(),
                        found
                            .iter()
                            .map(|d| d.text.chars().take(30).collect::<String>())
                            .collect::<Vec<_>>()
                    ));
                }
                if baseline && plain_rqrr(&image, &mut base_panics).contains(&expected) {
                    base_hits += 1;
                }
            }
        }
        let n = times.len().max(1);
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        println!(
            "{:<10} {:>6} {:>7.0}% {:>9.1} {:>9.1} {:>9.1} {:>7} {:>9}",
            set,
            times.len(),
            100.0 * hits as f64 / n as f64,
            times.iter().sum::<f64>() / n as f64,
            sorted.get(sorted.len() / 2).copied().unwrap_or(0.0),
            sorted.last().copied().unwrap_or(0.0),
            detector.panics_contained(),
            if baseline {
                format!(
                    "{:.0}% ({} p)",
                    100.0 * base_hits as f64 / n as f64,
                    base_panics
                )
            } else {
                "-".into()
            },
        );
        if verbose {
            for m in misses {
                println!("    miss {m}");
            }
        }
    }
}
