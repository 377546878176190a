//! The whole camera path as `tableside track` and the window run it, over recorded JPEG frames:
//! each frame read from its file, decoded to luma only (`vision::luma`), scanned (`Scanner`)
//! and tracked (`Tracker::update_frame`), per frame in this thread's CPU time (one core).
//!
//! At the start a table video is rendered — cards put down by hand into the zones of all five
//! games' mats, turned, the table cleared, and (unless `--calm`) shadows crossing it, bumps of
//! the table, hands resting on cards and cards taken away by hand (`Disturbances::busy_table`)
//! — and written to a temporary directory as colour JPEG files (4:4:4: `image`'s encoder does
//! not subsample the chroma, so a frame holds twice the chroma blocks of a webcam's 4:2:2
//! MJPEG; quality `--quality`, 85 by default; a little colour and sensor noise in each
//! channel). Then
//! the frames are played back in name order and timed: read (the file), decode (to luma),
//! scan, track. For comparison each frame is also decoded the way `tableside track` did
//! before (`image`'s full colour decode, then a conversion to grey), untimed in the totals.
//!
//! Prints per frame size: the costs (median / p95 / max ms) of read + decode, of scan + track,
//! of the whole path, of the old decode and of the general JPEG decoder's luma
//! (`luma::from_jpeg_general`, `zune-jpeg`, what this path used before its own baseline
//! decoder); the cost of taking the same frame's luma from a
//! `YUYV` buffer instead (what a camera streaming `YUYV`, `NV12` or `GREY` costs in place of
//! the read and decode); and how the tracking went (placements reported
//! right within 1 s of the hand leaving, cards taken away reported gone within 1 s of the hand
//! clearing, wrong events, false gone).
//!
//! `cargo bench --workspace --bench camera_path [-- --size 1920x1080] [--placements 40]
//! [--tag-mm MM] [--quality 85] [--calm] [--seed 1] [--keep DIR] [--frames DIR] [--limit N]
//! [--no-baseline] [--portable] [--verbose]`. Without `--size`: 1920×1080 with 36 mm tags and 1280×720 with 44 mm tags (the
//! sizes `tableside tags` recommends). `--keep DIR` writes the frames there and keeps them;
//! `--frames DIR` plays an existing directory (rendered by `--keep`) without rendering; `--limit
//! N` stops after N frames and `--no-baseline` leaves out the old decode (for `valgrind
//! --tool=callgrind`, docs/vision.md); `--portable` decodes with the portable code only
//! (`jpeg::decode_portable`: no AVX2, as on a Raspberry Pi).

mod common;

use cards::core::GameId;
use common::{Judge, arg, json_line, spread, thread_cpu};
use hardware::vision::detect::Scanner;
use hardware::vision::jpeg;
use hardware::vision::luma::{self, PixelFormat, to_luma};
use hardware::vision::mat::MatLayout;
use hardware::vision::render::{
    Camera, Disturbances, TableVideo, Truth, VideoPlan, table_video_with, tag_to_card_mm,
};
use hardware::vision::source::{DirSource, FrameSource, RenderSource};
use hardware::vision::tracker::{Tracker, TrackerConfig};
use std::path::{Path, PathBuf};

/// Writes the video's frames as colour JPEG files `DIR/<n>.jpg`; returns each frame's truth.
fn record(
    video: &TableVideo,
    camera: &Camera,
    dir: &Path,
    quality: u8,
) -> Result<Vec<Vec<Truth>>, Box<dyn std::error::Error>> {
    let mut source = RenderSource::new(camera.clone(), video.scenes.clone());
    let mut truths = Vec::new();
    let mut noise = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        noise ^= noise << 13;
        noise ^= noise >> 7;
        noise ^= noise << 17;
        noise
    };
    while let Some(frame) = source.next_frame()? {
        // A colour camera: the mat a little green, the light a little warm, sensor noise in
        // each channel (so the chroma costs what a real camera's does to decode).
        let (w, h) = (frame.image.width(), frame.image.height());
        let mut rgb = image::RgbImage::new(w, h);
        for (p, g) in rgb.pixels_mut().zip(frame.image.as_raw()) {
            let r = next();
            let n = |k: u32| ((r >> k) & 7) as i16 - 3;
            let g = i16::from(*g);
            *p = image::Rgb([
                (g + 6 + n(0)).clamp(0, 255) as u8,
                (g + n(8)).clamp(0, 255) as u8,
                (g - 12 + n(16)).clamp(0, 255) as u8,
            ]);
        }
        let file = std::fs::File::create(dir.join(format!("{}.jpg", frame.seq)))?;
        let mut out = std::io::BufWriter::new(file);
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality).encode_image(&rgb)?;
        truths.push(source.truth().to_vec());
    }
    Ok(truths)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let placements: usize = arg(&args, "--placements").unwrap_or(40);
    let quality: u8 = arg(&args, "--quality").unwrap_or(85);
    let seed: u64 = arg(&args, "--seed").unwrap_or(1);
    let limit: usize = arg(&args, "--limit").unwrap_or(usize::MAX);
    let verbose = args.iter().any(|a| a == "--verbose");
    let baseline = !args.iter().any(|a| a == "--no-baseline");
    let portable = args.iter().any(|a| a == "--portable");
    let fps = 10.0;
    let tag_arg: Option<f64> = arg(&args, "--tag-mm");
    let sizes: Vec<(u32, u32, f64)> = match arg::<String>(&args, "--size") {
        Some(s) => {
            let (w, h) = s.split_once('x').ok_or("--size WxH")?;
            let (w, h): (u32, u32) = (w.parse()?, h.parse()?);
            vec![(w, h, tag_arg.unwrap_or(if w >= 1600 { 36.0 } else { 44.0 }))]
        }
        None => vec![
            (1920, 1080, tag_arg.unwrap_or(36.0)),
            (1280, 720, tag_arg.unwrap_or(44.0)),
        ],
    };
    let disturb = if args.iter().any(|a| a == "--calm") {
        Disturbances::default()
    } else {
        Disturbances::busy_table()
    };
    let layouts = GameId::ALL
        .iter()
        .map(|g| MatLayout::builtin(*g))
        .collect::<Result<Vec<_>, _>>()?;
    println!(
        "{:<10} {:>5} {:>6} {:>22} {:>22} {:>22} {:>22} {:>22} {:>20} {:>9} {:>9} {:>6} {:>6}",
        "frame",
        "tags",
        "frames",
        "read+decode ms",
        "scan+track ms",
        "whole path ms",
        "old decode ms",
        "zune-jpeg luma ms",
        "YUYV to luma ms",
        "placed ok",
        "gone ok",
        "wrong",
        "false"
    );
    for (w, h, tag_mm) in sizes {
        let plan = VideoPlan {
            placements_per_mat: placements.div_ceil(layouts.len()),
            turn_every: 4,
            tag_mm,
            seed,
            ..VideoPlan::default()
        };
        let video = table_video_with(&layouts, &plan, &disturb)?;
        let camera = Camera::overhead(w, h, layouts[0].size_mm, 0.02, 0.05, 1.0);
        let temp;
        let (dir, truths): (PathBuf, Option<Vec<Vec<Truth>>>) = match (
            arg::<String>(&args, "--frames"),
            arg::<String>(&args, "--keep"),
        ) {
            (Some(existing), _) => (PathBuf::from(existing), None),
            (None, Some(keep)) => {
                let dir = PathBuf::from(keep).join(format!("{w}x{h}"));
                std::fs::create_dir_all(&dir)?;
                let truths = record(&video, &camera, &dir, quality)?;
                (dir, Some(truths))
            }
            (None, None) => {
                temp = tempfile::tempdir()?;
                let truths = record(&video, &camera, temp.path(), quality)?;
                (temp.path().to_path_buf(), Some(truths))
            }
        };
        let config = TrackerConfig {
            card_offset_mm: tag_to_card_mm(tag_mm),
            ..TrackerConfig::default()
        };
        let paths: Vec<PathBuf> = DirSource::open(&dir)?
            .remaining()
            .map(Path::to_path_buf)
            .collect();
        let mut source = DirSource::open(&dir)?;
        let mut scanner = Scanner::default();
        let mut part = usize::MAX;
        let mut tracker = Tracker::new(layouts[0].clone(), None, config.clone());
        let mut judge = Judge::new(&video, fps);
        let (mut read, mut scan, mut whole, mut old, mut general, mut yuyv_ms) = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        let mut frames = 0;
        loop {
            if frames >= limit {
                break;
            }
            let c0 = thread_cpu();
            let next = if portable {
                // The file read and decoded by the portable code (what a Raspberry Pi runs).
                match paths.get(frames) {
                    Some(path) => {
                        let bytes = std::fs::read(path)?;
                        let luma = jpeg::decode_portable(&bytes, luma::MAX_SIDE)
                            .map_err(|e| format!("{}: {e:?}", path.display()))?;
                        let image = image::GrayImage::from_raw(
                            luma.width as u32,
                            luma.height as u32,
                            luma.pixels,
                        )
                        .ok_or("a short frame")?;
                        Some(hardware::vision::Frame {
                            image,
                            at: std::time::Duration::from_secs_f64(frames as f64 / fps),
                            seq: frames as u64,
                        })
                    }
                    None => None,
                }
            } else {
                source.next_frame()?
            };
            let Some(frame) = next else {
                break;
            };
            let c1 = thread_cpu();
            let f = frame.seq as usize;
            let t = f as f64 / fps;
            if let Some(&p) = video.part_of_frame.get(f)
                && p != part
            {
                part = p;
                tracker = Tracker::new(layouts[part].clone(), None, config.clone());
            }
            let events = tracker.update_frame(t, &frame.image, &mut scanner);
            let c2 = thread_cpu();
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
            read.push(ms(c1 - c0));
            scan.push(ms(c2 - c1));
            whole.push(ms(c2 - c0));
            frames += 1;
            if baseline {
                // The same frame as a camera's YUYV buffer (chroma flat): its luma taken out.
                let yuyv: Vec<u8> = frame
                    .image
                    .as_raw()
                    .iter()
                    .flat_map(|&y| [y, 128])
                    .collect();
                let c3 = thread_cpu();
                let (fw, fh) = (frame.image.width() as usize, frame.image.height() as usize);
                let luma = to_luma(PixelFormat::Yuyv, &yuyv, fw, fh)?;
                yuyv_ms.push(ms(thread_cpu() - c3));
                std::hint::black_box(luma);
            }
            if baseline && let Some(path) = paths.get(f) {
                let bytes = std::fs::read(path)?;
                let c3 = thread_cpu();
                let grey = image::load_from_memory(&bytes)?.to_luma8();
                old.push(ms(thread_cpu() - c3));
                std::hint::black_box(grey);
                let c4 = thread_cpu();
                let grey = hardware::vision::luma::from_jpeg_general(&bytes)?;
                general.push(ms(thread_cpu() - c4));
                std::hint::black_box(grey);
            }
            if verbose {
                for e in &events {
                    println!("    {f:>5} {}", json_line(e));
                }
            }
            if let Some(truths) = &truths
                && let Some(truth) = truths.get(f)
                && f < video.scenes.len()
            {
                judge.frame(f, truth, &events);
            }
        }
        let mut s = judge.summary();
        let scored = truths.is_some() && limit == usize::MAX;
        println!(
            "{:<10} {:>5} {:>6} {:>22} {:>22} {:>22} {:>22} {:>22} {:>20} {:>9} {:>9} {:>6} {:>6}",
            format!("{w}x{h}"),
            format!("{tag_mm}mm"),
            frames,
            spread(&mut read, 2, ""),
            spread(&mut scan, 2, ""),
            spread(&mut whole, 2, ""),
            spread(&mut old, 2, ""),
            spread(&mut general, 2, ""),
            spread(&mut yuyv_ms, 2, ""),
            if scored {
                format!(
                    "{}/{}",
                    s.placed_in_time + s.turned_in_time,
                    s.placed + s.turned
                )
            } else {
                "-".into()
            },
            if scored {
                format!("{}/{}", s.removals_in_time, s.removals)
            } else {
                "-".into()
            },
            if scored {
                s.wrong.to_string()
            } else {
                "-".into()
            },
            if scored {
                s.false_gone.to_string()
            } else {
                "-".into()
            },
        );
        if scored {
            let d = &video.disturbances;
            println!(
                "    {} shadows, {} bumps, {} hands resting ({:.0} s), {} cards taken away; latency {}; gone after the hand cleared {}",
                d.shadows,
                d.bumps,
                d.rests,
                d.rest_frames as f64 / fps,
                video.removals.len(),
                spread(&mut s.latency, 2, "s"),
                spread(&mut s.removal_latency, 2, "s")
            );
            for l in s.late.iter().take(10) {
                println!("    not in time: {l}");
            }
            for (f, e) in judge.wrong.iter().take(10) {
                println!("    wrong at frame {f}: {}", json_line(e));
            }
        }
    }
    Ok(())
}
