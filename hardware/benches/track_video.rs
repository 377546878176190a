//! The whole vision path on rendered table video: cards put down by hand into the zones of all
//! five games' mats (the hand covers the card while it is placed, then leaves), at 10 frames a
//! second, read by `Scanner` and turned into events by the `Tracker` (`update_frame`: a card
//! not read is looked for at its place before it may be gone).
//!
//! Prints, per frame size: placements; placements reported in the right zone with the right
//! rotation within 1 s of the hand leaving the card's tag; the same for cards turned a quarter
//! in place by hand (every fourth placement; `--turn-every N`, 0 for none); with `--busy`,
//! shadows, bumps of the table, hands resting 4 s on cards and cards taken away by hand
//! between the placements (`Disturbances::busy_table`), and the cards taken away reported gone
//! within 1 s of the hand clearing; wrong reports (a card, zone or rotation that is not on the
//! table, a card gone that is still there — counted apart as "false gone" —, a conflict); the
//! latency from the hand leaving to the report (median, p95, max); the cost per frame of
//! scanning and tracking (median, p95, max: this thread's CPU time, i.e. one core; the frames
//! are rendered on another thread). `--plain` tracks with `Tracker::update` (detections only,
//! the timeout alone) for comparison.
//!
//! `cargo bench --workspace --bench track_video [-- --size 1920x1080] [--tag-mm 36]
//! [--placements 200] [--turn-every 4] [--busy] [--plain] [--fps 10] [--seed 1] [--verbose]`
//! (without `--size`: 1920×1080 and 1280×720).

mod common;

use cards::core::GameId;
use common::{Judge, arg, json_line, spread, thread_cpu};
use hardware::vision::detect::Scanner;
use hardware::vision::mat::MatLayout;
use hardware::vision::render::{
    Camera, Disturbances, Truth, VideoPlan, table_video_with, tag_to_card_mm,
};
use hardware::vision::source::{FrameSource, RenderSource};
use hardware::vision::tracker::{Tracker, TrackerConfig};
use hardware::vision::{Frame, VisionError};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let tag_mm: f64 = arg(&args, "--tag-mm").unwrap_or(36.0);
    let placements: usize = arg(&args, "--placements").unwrap_or(200);
    let fps: f64 = arg(&args, "--fps").unwrap_or(10.0);
    let seed: u64 = arg(&args, "--seed").unwrap_or(1);
    let verbose = args.iter().any(|a| a == "--verbose");
    let plain = args.iter().any(|a| a == "--plain");
    let disturb = if args.iter().any(|a| a == "--busy") {
        Disturbances::busy_table()
    } else {
        Disturbances::default()
    };
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
    let video = table_video_with(&layouts, &plan, &disturb)?;
    let d = &video.disturbances;
    println!(
        "{} placements and {} quarter turns by hand on the mats of {} ({} frames at {fps} fps, {:.0} s); \
         {} shadows, {} bumps, {} hands resting ({:.0} s), {} cards taken away; tags {tag_mm} mm, markers 50 mm, \
         mats 700 x 400 mm; tracking with {}",
        video.placements.iter().filter(|p| !p.turn).count(),
        video.placements.iter().filter(|p| p.turn).count(),
        layouts
            .iter()
            .map(|l| l.game.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        video.scenes.len(),
        video.scenes.len() as f64 / fps,
        d.shadows,
        d.bumps,
        d.rests,
        d.rest_frames as f64 / fps,
        video.removals.len(),
        if plain {
            "update (detections only)"
        } else {
            "update_frame"
        }
    );
    println!(
        "{:<10} {:>6} {:>8} {:>6} {:>8} {:>7} {:>8} {:>6} {:>10} {:>22} {:>22} {:>8}",
        "frame",
        "placed",
        "ok ≤1 s",
        "turned",
        "ok ≤1 s",
        "removed",
        "gone ≤1s",
        "wrong",
        "false gone",
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
        let mut judge = Judge::new(&video, fps);
        let mut costs = Vec::new();
        for (frame, truth) in rx {
            let f = frame.seq as usize;
            let t = frame.seq as f64 / fps;
            if video.part_of_frame[f] != part {
                part = video.part_of_frame[f];
                tracker = Tracker::new(layouts[part].clone(), None, config.clone());
            }
            let cpu = thread_cpu();
            let events = if plain {
                let found = scanner.scan(&frame.image);
                tracker.update(t, &found)
            } else {
                tracker.update_frame(t, &frame.image, &mut scanner)
            };
            costs.push((thread_cpu() - cpu).as_secs_f64() * 1000.0);
            if verbose {
                for e in &events {
                    println!("    {f:>5} {}", json_line(e));
                }
            }
            judge.frame(f, &truth, &events);
        }
        match render.join() {
            Ok(r) => r?,
            Err(_) => return Err("the render thread failed".into()),
        }
        let mut s = judge.summary();
        println!(
            "{:<10} {:>6} {:>8} {:>6} {:>8} {:>7} {:>8} {:>6} {:>10} {:>22} {:>22} {:>8}",
            format!("{w}x{h}"),
            s.placed,
            s.placed_in_time,
            s.turned,
            s.turned_in_time,
            s.removals,
            s.removals_in_time,
            s.wrong,
            s.false_gone,
            spread(&mut s.latency, 2, "s"),
            spread(&mut costs, 1, "ms"),
            s.mat_lost
        );
        if !s.removal_latency.is_empty() {
            println!(
                "    gone after the hand cleared: {}",
                spread(&mut s.removal_latency, 2, "s")
            );
        }
        for l in s.late.iter().take(20) {
            println!("    not in time: {l}");
        }
        for (f, e) in judge.wrong.iter().take(20) {
            println!("    wrong at frame {f}: {}", json_line(e));
        }
    }
    Ok(())
}
