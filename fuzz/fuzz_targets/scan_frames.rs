//! Feeds arbitrary frames to the QR detector and the frame scanner: the first two bytes give
//! the frame's width and height (up to [`MAX_SIDE`] × [`MAX_SIDE`]; larger are skipped), the
//! rest its pixels (repeated to fill the frame, so short inputs still make whole frames), then
//! the same frame again, changed, as a second frame of a stream.
//!
//! Why the cap: a frame of noise makes every call run to its CPU budget (120 ms a `detect`,
//! 60 ms a `scan`, in release; the sanitizer build does several times less work in that time),
//! so a 255 × 255 noise frame cost about 0.8 s of CPU an input and a run managed a few hundred
//! inputs in 10 minutes. A 128 × 128 frame still holds a version-10 code at 2 px a module, and
//! costs a quarter of that at most; and the budgets here are an eighth of the defaults (15 ms a
//! `detect`, 8 ms a `scan`), so a frame that would run to its budget costs at most about 50 ms
//! of CPU an input, and the deadline checks inside candidate work are driven on most inputs.
//! Everything else is the default configuration. Run with `-max_len=16386` (2 + 128 × 128). Oracle: no escaped panic, every detection has finite corners and a
//! version of 1–40, results sorted by text, and the second scan of an unchanged frame keeps
//! every code the first read.
#![no_main]

use hardware::vision::detect::{Detection, Detector, DetectorConfig, ScanConfig, Scanner};
use image::GrayImage;
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

/// The largest frame side fed to the detector.
const MAX_SIDE: u32 = 128;

fn frame(data: &[u8]) -> Option<GrayImage> {
    let (&w, rest) = data.split_first()?;
    let (&h, px) = rest.split_first()?;
    if px.is_empty() {
        return None;
    }
    let (w, h) = (u32::from(w).max(1), u32::from(h).max(1));
    if w > MAX_SIDE || h > MAX_SIDE {
        return None;
    }
    let n = (w * h) as usize;
    let pixels: Vec<u8> = px.iter().copied().cycle().take(n).collect();
    GrayImage::from_raw(w, h, pixels)
}

fn check(found: &[Detection]) {
    for d in found {
        assert!((1..=40).contains(&d.version), "version {}", d.version);
        assert!(d.corners.iter().all(|c| c.0.is_finite() && c.1.is_finite()));
    }
    assert!(
        found.windows(2).all(|w| w[0].text <= w[1].text),
        "not sorted"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some(image) = frame(data) else {
        return;
    };
    let detector = Detector::new(DetectorConfig {
        detect_budget: Duration::from_millis(15),
        ..DetectorConfig::default()
    });
    check(&detector.detect(&image));
    check(&detector.detect_hinted(&image, &[]));
    let mut scanner = Scanner::new(
        Detector::new(detector.config().clone()),
        ScanConfig {
            frame_budget: Duration::from_millis(8),
            ..ScanConfig::default()
        },
    );
    let first = scanner.scan(&image);
    check(&first);
    let again = scanner.scan(&image);
    check(&again);
    let texts = |v: &[Detection]| v.iter().map(|d| d.text.clone()).collect::<Vec<_>>();
    let kept = texts(&again);
    assert!(
        texts(&first).iter().all(|t| kept.contains(t)),
        "a still frame lost a code: {:?} then {kept:?}",
        texts(&first)
    );
    // The frame with its bytes turned around: a changed second frame of the stream.
    let mut turned = image.clone();
    image::imageops::rotate180_in_place(&mut turned);
    check(&scanner.scan(&turned));
});
