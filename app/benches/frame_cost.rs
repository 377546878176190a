//! The cost of one frame of the table screen, mid-match (Jaken, battle 3), without a GPU: egui's
//! layout of the whole screen plus tessellation into triangles, as eframe does each frame.
//!
//! `cargo bench --workspace --bench frame_cost [-- FRAMES]` prints the median and p95 time per
//! frame. For an instruction count (to estimate a Raspberry Pi), run the bench binary under
//! callgrind twice, with 0 and with N frames, and divide the difference by N (see
//! docs/raspberry-pi.md, "Measured cost").

use std::process::Command;
use std::time::Instant;
use tableside::ui::{FontChoice, RESUME_ENV, TablesideApp, UiOptions, prepare_context};

fn main() {
    let frames: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    if let Some(dir) = std::env::var_os("TABLESIDE_FRAME_COST_DIR") {
        measure(std::path::Path::new(&dir), frames);
        return;
    }
    let dir = std::env::temp_dir().join(format!("tableside-frame-cost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/mid-match.script");
    let played = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(&dir)
        .args(["play", "--game", "jaken", "--script", script])
        .env_remove("TABLESIDE_CONFIG")
        .output();
    match played {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            eprintln!("frame_cost: {}", String::from_utf8_lossy(&out.stderr));
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("frame_cost: cannot run tableside: {e}");
            std::process::exit(1);
        }
    }
    // The app opens the newest unfinished match when TABLESIDE_RESUME=latest: run again with it.
    if std::env::var(RESUME_ENV).as_deref() != Ok("latest") {
        let status = std::env::current_exe().and_then(|exe| {
            Command::new(exe)
                .args(std::env::args().skip(1))
                .env(RESUME_ENV, "latest")
                .env("TABLESIDE_FRAME_COST_DIR", &dir)
                .status()
        });
        let _ = std::fs::remove_dir_all(&dir);
        std::process::exit(status.map_or(1, |s| s.code().unwrap_or(1)));
    }
    measure(&dir, frames);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Measures `frames` frames of the app on the data folder `dir` (a match in progress).
fn measure(dir: &std::path::Path, frames: usize) {
    let mut app = TablesideApp::new(UiOptions {
        db_path: dir.join("tableside.sqlite3"),
        kiosk: false,
        tower: None,
    });
    let ctx = egui::Context::default();
    prepare_context(&ctx, FontChoice::EmbeddedOnly);
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let frame = |app: &mut TablesideApp| {
        let out = ctx.run_ui(input(), |ui| app.show(ui));
        let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
        std::hint::black_box(prims.len())
    };
    // Warm up: fonts, the resumed match, layout caches.
    for _ in 0..5 {
        frame(&mut app);
    }
    let mut times = Vec::with_capacity(frames);
    let mut primitives = 0;
    for _ in 0..frames {
        let t = Instant::now();
        primitives = frame(&mut app);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    if app.session().is_none() {
        eprintln!("frame_cost: the app did not open the match in progress");
        std::process::exit(1);
    }
    if times.is_empty() {
        println!("frame_cost: 0 frames measured (warm-up only)");
        return;
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "table screen 1280x800, {frames} frames: median {:.2} ms, p95 {:.2} ms per frame ({primitives} clipped primitives)",
        at(0.5),
        at(0.95)
    );
}
