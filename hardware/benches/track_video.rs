//! The whole vision path on rendered table video: cards put down by hand into the zones of all
//! five games' mats (the hand covers the card while it is placed, then leaves), at 10 frames a
//! second, read by `Scanner` and turned into events by the `Tracker`.
//!
//! Prints, per frame size: placements; placements reported in the right zone with the right
//! rotation within 1 s of the hand leaving the card's tag; the same for cards turned a quarter
//! in place by hand (every fourth placement; `--turn-every N`, 0 for none); wrong reports (a card, zone or
//! rotation that is not on the table, a card gone that is still there, a conflict); the latency
//! from the hand leaving to the report (median, p95, max); the cost per frame of scanning and
//! tracking (median, p95, max: this thread's CPU time, i.e. one core; the frames are rendered
//! on another thread).
//!
//! `cargo bench --workspace --bench track_video [-- --size 1920x1080] [--tag-mm 36]
//! [--placements 200] [--turn-every 4] [--fps 10] [--seed 1] [--verbose]` (without `--size`: 1920×1080 and
//! 1280×720).

use cards::core::GameId;
use hardware::vision::detect::{Scanner, thread_cpu};
use hardware::vision::mat::{MatLayout, ZoneId};
use hardware::vision::render::{Camera, Placement, Truth, VideoPlan, table_video, tag_to_card_mm};
use hardware::vision::source::{FrameSource, RenderSource};
use hardware::vision::tracker::{EventKind, TrackEvent, Tracker, TrackerConfig};
use hardware::vision::{Frame, VisionError};
use std::collections::{BTreeMap, BTreeSet};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let tag_mm: f64 = arg(&args, "--tag-mm").unwrap_or(36.0);
    let placements: usize = arg(&args, "--placements").unwrap_or(200);
    let fps: f64 = arg(&args, "--fps").unwrap_or(10.0);
    let seed: u64 = arg(&args, "--seed").unwrap_or(1);
    let verbose = args.iter().any(|a| a == "--verbose");
    let sizes: Vec<(u32, u32)> = match arg::<String>(&args, "--size") {
        Some(s) => {
            let (w, h) = s.split_once('x').ok_or("--size WxH")?;
            vec![(w.parse()?, h.parse()?)]
        }
        None => vec![(1920, 1080), (1280, 720)],
    };
    let layouts = GameId::ALL
        .iter()
        .map(|g| MatLayout::builtin(*g))
        .collect::<Result<Vec<_>, _>>()?;
    let plan = VideoPlan {
        placements_per_mat: placements.div_ceil(layouts.len()),
        turn_every: arg(&args, "--turn-every").unwrap_or(4),
        tag_mm,
        seed,
        ..VideoPlan::default()
    };
    let video = table_video(&layouts, &plan)?;
    println!(
        "{} placements and {} quarter turns by hand on the mats of {} ({} frames at {fps} fps, {:.0} s); tags {tag_mm} mm, markers 50 mm, mats 700 x 400 mm",
        video.placements.iter().filter(|p| !p.turn).count(),
        video.placements.iter().filter(|p| p.turn).count(),
        layouts
            .iter()
            .map(|l| l.game.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        video.scenes.len(),
        video.scenes.len() as f64 / fps
    );
    println!(
        "{:<10} {:>6} {:>9} {:>6} {:>9} {:>6} {:>24} {:>24} {:>9}",
        "frame",
        "placed",
        "ok ≤1 s",
        "turned",
        "ok ≤1 s",
        "wrong",
        "latency med/p95/max",
        "cost med/p95/max",
        "mat lost"
    );
    for (w, h) in sizes {
        let camera = Camera::overhead(w, h, layouts[0].size_mm, 0.02, 0.05, 1.0);
        // Frames are rendered on a second thread; only scanning and tracking are timed.
        let (tx, rx) = std::sync::mpsc::sync_channel::<(Frame, Vec<Truth>)>(16);
        let scenes = video.scenes.clone();
        let render = std::thread::Builder::new().name("render".into()).spawn(
            move || -> Result<(), VisionError> {
                let mut source = RenderSource::new(camera, scenes);
                while let Some(frame) = source.next_frame()? {
                    if tx.send((frame, source.truth().to_vec())).is_err() {
                        break;
                    }
                }
                Ok(())
            },
        )?;
        let config = TrackerConfig {
            card_offset_mm: tag_to_card_mm(tag_mm),
            ..TrackerConfig::default()
        };
        let mut scanner = Scanner::default();
        let mut part = usize::MAX;
        let mut tracker = Tracker::new(layouts[0].clone(), None, config.clone());
        // Each card's actions (put down, turned), in frame order.
        let mut by_payload: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, p) in video.placements.iter().enumerate() {
            by_payload.entry(p.payload.as_str()).or_default().push(i);
        }
        // The action in effect for a card at frame `f`.
        let current = |payload: &str, f: usize| -> Option<usize> {
            by_payload
                .get(payload)?
                .iter()
                .copied()
                .rev()
                .find(|&i| video.placements[i].frame <= f)
        };
        let mut reported: Vec<Option<f64>> = vec![None; video.placements.len()];
        let mut left: Vec<Option<f64>> = vec![None; video.placements.len()];
        let mut wrong: Vec<(usize, TrackEvent)> = Vec::new();
        let mut mat_lost = 0;
        let mut costs = Vec::new();
        for (frame, truth) in rx {
            let f = frame.seq as usize;
            let t = frame.seq as f64 / fps;
            if video.part_of_frame[f] != part {
                part = video.part_of_frame[f];
                tracker = Tracker::new(layouts[part].clone(), None, config.clone());
            }
            let cpu = thread_cpu();
            let found = scanner.scan(&frame.image);
            let events = tracker.update(t, &found);
            costs.push((thread_cpu() - cpu).as_secs_f64() * 1000.0);
            let on_table: BTreeSet<&str> = video.scenes[f]
                .cards
                .iter()
                .filter_map(|c| c.symbol.as_ref().map(|s| s.text.as_str()))
                .collect();
            // When each card's tag is first in view, uncovered, after it was put down.
            for tr in truth.iter().filter(|t| t.readable()) {
                if let Some(i) = current(tr.text.as_str(), f)
                    && left[i].is_none()
                {
                    left[i] = Some(t);
                }
            }
            for e in events {
                if verbose {
                    println!("    {f:>5} {}", serde_json_line(&e));
                }
                let payload = e.payload.as_deref().unwrap_or("");
                let placed = current(payload, f).map(|i| (i, &video.placements[i]));
                let ok = match e.event {
                    EventKind::Seen | EventKind::Moved | EventKind::Rotated => match placed {
                        Some((i, p))
                            if on_table.contains(payload)
                                && e.event == expected_kind(p)
                                && e.zone_id() == Some(p.zone.clone())
                                && e.rotation == Some(p.quarter_turns) =>
                        {
                            if reported[i].is_none() {
                                reported[i] = Some(t);
                            }
                            true
                        }
                        _ => false,
                    },
                    EventKind::Gone => !on_table.contains(payload),
                    EventKind::Conflict => false,
                    EventKind::MatLost => {
                        mat_lost += 1;
                        true
                    }
                    EventKind::MatFound => true,
                };
                if !ok {
                    wrong.push((f, e));
                }
            }
        }
        match render.join() {
            Ok(r) => r?,
            Err(_) => return Err("the render thread failed".into()),
        }
        let mut latency = Vec::new();
        let mut in_time = 0;
        let mut turns_in_time = 0;
        let mut late: Vec<String> = Vec::new();
        for (i, p) in video.placements.iter().enumerate() {
            match (reported[i], left[i]) {
                (Some(r), Some(l)) => {
                    latency.push(r - l);
                    if r - l <= 1.0 + 1e-9 {
                        if p.turn {
                            turns_in_time += 1;
                        } else {
                            in_time += 1;
                        }
                    } else {
                        late.push(format!(
                            "{} in {} late by {:.1} s",
                            p.payload,
                            zone_name(&p.zone),
                            r - l
                        ));
                    }
                }
                (None, _) => late.push(format!(
                    "{} ({}, {} turns, frame {}) never reported",
                    p.payload,
                    zone_name(&p.zone),
                    p.quarter_turns,
                    p.frame
                )),
                (Some(_), None) => late.push(format!("{}: its tag was never uncovered", p.payload)),
            }
        }
        latency.sort_by(f64::total_cmp);
        costs.sort_by(f64::total_cmp);
        let turns = video.placements.iter().filter(|p| p.turn).count();
        println!(
            "{:<10} {:>6} {:>9} {:>6} {:>9} {:>6} {:>24} {:>24} {:>9}",
            format!("{w}x{h}"),
            video.placements.len() - turns,
            in_time,
            turns,
            turns_in_time,
            wrong.len(),
            format!(
                "{:.2} / {:.2} / {:.2} s",
                percentile(&latency, 0.5),
                percentile(&latency, 0.95),
                latency.last().copied().unwrap_or(f64::NAN)
            ),
            format!(
                "{:.1} / {:.1} / {:.1} ms",
                percentile(&costs, 0.5),
                percentile(&costs, 0.95),
                costs.last().copied().unwrap_or(f64::NAN)
            ),
            mat_lost
        );
        for l in late.iter().take(20) {
            println!("    not in time: {l}");
        }
        for (f, e) in wrong.iter().take(20) {
            println!("    wrong at frame {f}: {}", serde_json_line(e));
        }
    }
    Ok(())
}

/// What a new card is reported as, and a card turned in place.
fn expected_kind(p: &Placement) -> EventKind {
    if p.turn {
        EventKind::Rotated
    } else {
        EventKind::Seen
    }
}

fn zone_name(z: &ZoneId) -> String {
    z.to_string()
}

fn serde_json_line(e: &TrackEvent) -> String {
    serde_json::to_string(e).unwrap_or_default()
}
