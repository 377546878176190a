//! Decode cost and recall on rendered table frames: 24 tagged cards (36 mm tags) and the four
//! mat corner markers on a 700 × 400 mm mat, at 1920 × 1080 and at 1280 × 720, over a sequence
//! of still stretches and card placements (a hand comes in, puts a card down, leaves).
//!
//! Prints, per resolution and scanning mode, the median / p95 / max decode time per frame (the
//! thread's CPU time, so one core, robust to other work on the machine; and the median wall time), recall over the codes a reader can see (in frame, not covered by a hand), and
//! false positives (texts not on the table, or reads far from their code).
//!
//! Then first sight (`--first-sight N`, 30 by default; 0 skips it): `Detector::detect` from
//! scratch on N different tables of 30 codes each (26 tagged cards in random places and turns,
//! the four corner markers), every frame a new table and new sensor noise: median / p95 / max
//! per frame, recall, false positives (`--verbose`: every table's time and codes read).
//!
//! `cargo bench --workspace --bench detect_frames [-- --frames N] [--first-sight N] [--budget-ms MS] [--size WxH] [--dump DIR] [--mode NAME] [--verbose]`
//! (`--dump` writes every fifth frame as PNG; `--mode` runs only the modes whose name starts so;
//! `--verbose` prints the scanner's statistics for every frame).

use hardware::vision::detect::{
    Detection, Detector, DetectorConfig, ScanConfig, Scanner, thread_cpu,
};
use hardware::vision::render::{
    Camera, Hand, Look, Scene, Truth, render, seeded, table_card, table_scene,
};
use hardware::vision::source::{FrameSource, RenderSource};
use hardware::vision::{Frame, VisionError};
use std::time::{Duration, Instant};

/// A table of 30 codes for first sight: the 24 places of `table_scene` filled, two more cards
/// at the middle of the short edges, the four corner markers; seeded places, turns and noise.
fn first_sight_table(seed: u64) -> Result<Scene, VisionError> {
    let mut scene = table_scene(24, 36.0, seed)?;
    let mut rng = seeded(seed);
    for (i, at) in [(24usize, (40.0, 200.0)), (25, (660.0, 200.0))] {
        let mut card = table_card(i, 36.0, &mut rng)?;
        card.center_mm = at;
        scene.cards.push(card);
    }
    scene.look = Look {
        seed,
        ..Look::default()
    };
    Ok(scene)
}

/// `Detector::detect` from scratch on `n` different 30-code tables at this frame size, with
/// `budget` as `DetectorConfig::detect_budget` (the default unless given: a larger one for
/// runs under valgrind, whose slowdown would otherwise end the search early).
fn first_sight(
    w: u32,
    h: u32,
    n: usize,
    budget: Option<Duration>,
    verbose: bool,
) -> Result<(), VisionError> {
    let mut config = DetectorConfig::default();
    if let Some(b) = budget {
        config.detect_budget = b;
    }
    let detector = Detector::new(config);
    let mut s = Score::default();
    for k in 0..n {
        let scene = first_sight_table(1000 + k as u64)?;
        let camera = Camera::overhead(w, h, scene.mat_mm, 0.02, 0.05, 1.0);
        let frame = render(&scene, &camera, k as u64);
        let cpu = thread_cpu();
        let found = detector.detect(&frame.image);
        let ms = (thread_cpu() - cpu).as_secs_f64() * 1000.0;
        s.times.push(ms);
        s.frames_full += 1;
        let before = (s.found, s.false_pos);
        score(&frame.truth, &found, &mut s);
        if verbose {
            println!(
                "    table {k:>2}: {ms:>6.2} ms, {} read, {} missed, {} false",
                s.found - before.0,
                frame.truth.iter().filter(|t| t.readable()).count() - (s.found - before.0),
                s.false_pos - before.1,
            );
        }
    }
    let mut sorted = s.times.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{:<11} {:<22} {:>6.1}ms {:>6.1}ms {:>6.1}ms {:>9} {:>7.1}% {:>7.2} {:>6}  ({} codes a frame)",
        format!("{w}x{h}"),
        "first sight (detect)",
        percentile(&sorted, 0.5),
        percentile(&sorted, 0.95),
        sorted.last().copied().unwrap_or(0.0),
        "",
        100.0 * s.found as f64 / s.expected.max(1) as f64,
        s.false_pos as f64 / n.max(1) as f64,
        n,
        s.expected / n.max(1),
    );
    Ok(())
}

/// The script: 20 cards lie still; every 25 frames a hand brings one more card (8 frames).
fn script(frames: usize) -> Result<Vec<Scene>, VisionError> {
    let mut scene = table_scene(20, 36.0, 11)?;
    let mut rng = seeded(99);
    let mut scenes = Vec::new();
    let mut next_card = 20;
    for f in 0..frames {
        let phase = f % 25;
        scene.hands.clear();
        if f >= 10 && (10..18).contains(&phase) && next_card < 24 {
            let target = table_card(next_card, 36.0, &mut rng)?;
            // Hand path: from the bottom edge to the place and back.
            let t = (phase - 10) as f64;
            let reach = if t < 4.0 { t / 3.0 } else { (7.0 - t) / 3.0 }.clamp(0.0, 1.0);
            let start = (target.center_mm.0 + 60.0, 520.0);
            let at = (
                start.0 + (target.center_mm.0 + 20.0 - start.0) * reach,
                start.1 + (target.center_mm.1 + 30.0 - start.1) * reach,
            );
            scene.hands.push(Hand {
                at_mm: at,
                angle_deg: -15.0,
                scale: 1.0,
            });
            if phase == 13 {
                scene.cards.push(target);
            }
            if phase == 17 {
                next_card += 1;
            }
        }
        scenes.push(scene.clone());
    }
    Ok(scenes)
}

/// A way of scanning frames: gives the detections and whether the whole frame was searched.
type Mode = Box<dyn FnMut(&Frame) -> (Vec<Detection>, bool)>;

#[derive(Default)]
struct Score {
    times: Vec<f64>,
    expected: usize,
    found: usize,
    false_pos: usize,
    frames_full: usize,
}

fn score(truth: &[Truth], found: &[Detection], s: &mut Score) {
    for t in truth.iter().filter(|t| t.readable()) {
        s.expected += 1;
        let c = center(&t.corners);
        if found
            .iter()
            .any(|d| d.text == t.text && dist(d.center(), c) < side(&t.corners) * 0.5)
        {
            s.found += 1;
        }
    }
    for d in found {
        let ok = truth
            .iter()
            .any(|t| t.text == d.text && dist(d.center(), center(&t.corners)) < side(&t.corners));
        if !ok {
            s.false_pos += 1;
        }
    }
}

fn center(c: &[(f32, f32); 4]) -> (f32, f32) {
    (
        (c[0].0 + c[1].0 + c[2].0 + c[3].0) / 4.0,
        (c[0].1 + c[1].1 + c[2].1 + c[3].1) / 4.0,
    )
}
fn dist(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}
fn side(c: &[(f32, f32); 4]) -> f32 {
    dist(c[0], c[1])
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() -> Result<(), VisionError> {
    let args: Vec<String> = std::env::args().collect();
    let frames = args
        .iter()
        .position(|a| a == "--frames")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(120usize);
    let scenes = script(frames)?;
    let verbose = args.iter().any(|a| a == "--verbose");
    println!(
        "{frames} frames: 20 cards still, a card placed by hand every 25 frames (up to 24), 4 corner markers; tags 36 mm"
    );
    println!(
        "{:<11} {:<22} {:>8} {:>8} {:>8} {:>9} {:>8} {:>7} {:>6} {:>9}",
        "frame",
        "mode",
        "median",
        "p95",
        "max",
        "1st frame",
        "recall",
        "FP/frm",
        "full",
        "wall med"
    );
    println!(
        "(times: this thread's CPU time per frame, i.e. one core; wall med: median wall-clock time)"
    );
    // `--size 1280x720` measures one resolution only (e.g. under callgrind).
    let size = args
        .iter()
        .position(|a| a == "--size")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let first_n = args
        .iter()
        .position(|a| a == "--first-sight")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(30usize);
    let budget = args
        .iter()
        .position(|a| a == "--budget-ms")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis);
    for (w, h) in [(1920u32, 1080u32), (1280, 720)] {
        if size.as_ref().is_some_and(|s| *s != format!("{w}x{h}")) {
            continue;
        }
        if first_n > 0 {
            first_sight(w, h, first_n, budget, verbose)?;
        }
        if frames == 0 {
            continue;
        }
        let camera = Camera::overhead(w, h, scenes[0].mat_mm, 0.02, 0.05, 1.0);
        // Render once, score every mode on the same frames.
        let mut source = RenderSource::new(camera.clone(), scenes.clone());
        let mut rendered: Vec<(Frame, Vec<Truth>)> = Vec::new();
        while let Some(frame) = source.next_frame()? {
            rendered.push((frame, source.truth().to_vec()));
        }
        if let Some(dir) = args
            .iter()
            .position(|a| a == "--dump")
            .and_then(|i| args.get(i + 1))
        {
            for (frame, _) in rendered.iter().step_by(5) {
                let path = std::path::Path::new(dir).join(format!("{w}x{h}-{:03}.png", frame.seq));
                if let Err(e) = frame.image.save(&path) {
                    println!("cannot write {}: {e}", path.display());
                }
            }
        }
        let modes: Vec<(&str, Mode)> = vec![
            ("scanner (default)", {
                let mut s = Scanner::default();
                Box::new(move |f: &Frame| {
                    let d = s.scan(&f.image);
                    if verbose {
                        println!("    {:>3} {:?}", f.seq, s.stats());
                    }
                    (d, s.stats().full_search)
                })
            }),
            ("scanner, search always", {
                let mut s = Scanner::new(
                    Detector::default(),
                    ScanConfig {
                        full_search_every: 1,
                        ..ScanConfig::default()
                    },
                );
                Box::new(move |f: &Frame| {
                    let d = s.scan(&f.image);
                    if verbose {
                        println!("    {:>3} {:?}", f.seq, s.stats());
                    }
                    (d, true)
                })
            }),
            ("detect_hinted", {
                let d = Detector::default();
                let mut last: Vec<Detection> = Vec::new();
                Box::new(move |f: &Frame| {
                    last = d.detect_hinted(&f.image, &last);
                    (last.clone(), true)
                })
            }),
        ];
        let only = args
            .iter()
            .position(|a| a == "--mode")
            .and_then(|i| args.get(i + 1));
        for (name, mut run) in modes {
            if only.is_some_and(|m| !name.starts_with(m.as_str())) {
                continue;
            }
            let mut s = Score::default();
            let mut wall = Vec::new();
            for (frame, truth) in &rendered {
                let t = Instant::now();
                let cpu = thread_cpu();
                let (found, full) = run(frame);
                s.times.push((thread_cpu() - cpu).as_secs_f64() * 1000.0);
                wall.push(t.elapsed().as_secs_f64() * 1000.0);
                s.frames_full += usize::from(full);
                score(truth, &found, &mut s);
            }
            let first = s.times.first().copied().unwrap_or(0.0);
            let mut sorted = s.times.clone();
            sorted.sort_by(f64::total_cmp);
            wall.sort_by(f64::total_cmp);
            println!(
                "{:<11} {:<22} {:>6.1}ms {:>6.1}ms {:>6.1}ms {:>7.1}ms {:>7.1}% {:>7.2} {:>6} {:>7.1}ms",
                format!("{w}x{h}"),
                name,
                percentile(&sorted, 0.5),
                percentile(&sorted, 0.95),
                sorted.last().copied().unwrap_or(0.0),
                first,
                100.0 * s.found as f64 / s.expected.max(1) as f64,
                s.false_pos as f64 / rendered.len().max(1) as f64,
                s.frames_full,
                percentile(&wall, 0.5),
            );
        }
        // The thorough one-shot read on the first frame, for reference.
        if let Some((frame, truth)) = rendered.first().filter(|_| only.is_none()) {
            let d = Detector::default();
            let cpu = thread_cpu();
            let found = d.detect(&frame.image);
            let ms = (thread_cpu() - cpu).as_secs_f64() * 1000.0;
            let mut s = Score {
                times: vec![ms],
                expected: 0,
                found: 0,
                false_pos: 0,
                frames_full: 1,
            };
            score(truth, &found, &mut s);
            println!(
                "{:<11} {:<22} {:>6.1}ms {:>8} {:>8} {:>9} {:>7.1}% {:>7.2}",
                format!("{w}x{h}"),
                "detect (thorough)",
                ms,
                "",
                "",
                "",
                100.0 * s.found as f64 / s.expected.max(1) as f64,
                s.false_pos as f64,
            );
        }
    }
    Ok(())
}
