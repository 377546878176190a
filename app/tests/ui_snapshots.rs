//! Snapshot tests of the table screen, rendered with wgpu (llvmpipe when headless), in English
//! and Japanese, at 1280×800 and at the 800×480 of the Raspberry Pi touch display.
//!
//! The reference images are `app/tests/snapshots/*.png`. After a deliberate change of the
//! screen, rewrite them with
//!
//! ```text
//! UPDATE_SNAPSHOTS=1 cargo test --workspace --test ui_snapshots
//! ```
//!
//! and look at them. The threshold tolerates the small anti-aliasing differences between
//! renderers (a per-pixel colour distance of 2 and up to 0.3 % of the pixels), not a moved or
//! missing widget, which changes far more pixels.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, SnapshotOptions};
use std::path::Path;
use std::process::Command;
use tableside::ui::i18n::Lang;
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};

/// The table in battle 3 (scripts/mid-match.script), resumed in a harness of `size`.
fn mid_match(data: &Path, size: [f32; 2], lang: Lang) -> Harness<'static, TablesideApp> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mid-match.script");
    let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .args(["play", "--game", "jaken", "--script"])
        .arg(&script)
        .arg("--data-dir")
        .arg(data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut app = TablesideApp::new(UiOptions {
        db_path: data.join("tableside.sqlite3"),
        kiosk: false,
        tower: None,
    });
    app.set_lang(lang);
    let mut h = Harness::builder()
        .with_size(size)
        .wgpu()
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app);
    h.run();
    let resume = lang.resume_match(1);
    h.get_by_label(&resume).click();
    h.run();
    h.run();
    h
}

fn options() -> SnapshotOptions {
    let pixels = 1280 * 800;
    SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(pixels * 3 / 1000)
}

#[test]
fn the_table_screen_in_english() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = mid_match(dir.path(), [1280.0, 800.0], Lang::En);
    assert!(h.query_by_label("Battle 3 / 10").is_some());
    h.snapshot_options("table-en-1280x800", &options());
}

#[test]
fn the_table_screen_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = mid_match(dir.path(), [1280.0, 800.0], Lang::Ja);
    assert!(h.query_by_label("第3バトル / 10").is_some());
    h.snapshot_options("table-ja-1280x800", &options());
}

#[test]
fn the_compact_table_screen_in_english() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = mid_match(dir.path(), [800.0, 480.0], Lang::En);
    h.snapshot_options("table-en-800x480", &options());
}

#[test]
fn the_compact_table_screen_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = mid_match(dir.path(), [800.0, 480.0], Lang::Ja);
    h.snapshot_options("table-ja-800x480", &options());
}

/// The table screen of every game halfway through its demo match (Space Junk: the six-player
/// match), resumed in a harness of `size`.
fn demo_halfway(
    dir: &Path,
    file: &str,
    size: [f32; 2],
    lang: Lang,
) -> Harness<'static, TablesideApp> {
    use cards::script::{Script, Step};
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs/examples")
            .join(file),
    )
    .unwrap();
    let script = Script::parse(&text).unwrap();
    let set = script
        .catalogue
        .clone()
        .unwrap_or_else(|| format!("{}-demo", script.game.as_str()));
    let catalogue = tableside::session::catalogue_for(script.game, &set).unwrap();
    let header = script.header(&catalogue).unwrap();
    let db = dir.join("tableside.sqlite3");
    let mut session =
        tableside::session::Session::start(tableside::store::Store::open(&db).unwrap(), header)
            .unwrap();
    let inputs: Vec<_> = script
        .steps
        .iter()
        .filter_map(|(_, s)| match s {
            Step::Input(v) => Some(v.clone()),
            _ => None,
        })
        .collect();
    for input in &inputs[..inputs.len() / 2] {
        session.submit(input).unwrap();
    }
    drop(session);
    let mut app = TablesideApp::new(UiOptions {
        db_path: db,
        kiosk: true,
        tower: None,
    });
    app.set_lang(lang);
    app.resume_latest();
    let mut h = Harness::builder()
        .with_size(size)
        .wgpu()
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app);
    h.run();
    h.run();
    h
}

/// One snapshot per game and language at the Pi's 800×480 (the kiosk), halfway through the
/// game's demo match; these are the screenshots in docs/ui.md.
#[test]
fn every_game_at_800x480_in_both_languages() {
    let mut results = egui_kittest::SnapshotResults::new();
    for (file, name) in [
        ("jaken-demo.script", "jaken"),
        ("junk_ken-demo.script", "junk-ken"),
        ("rockman-demo.script", "rockman"),
        ("space_junk-6p.script", "space-junk-6p"),
        ("yomi-demo.script", "yomi"),
    ] {
        for (lang, code) in [(Lang::En, "en"), (Lang::Ja, "ja")] {
            let dir = tempfile::tempdir().unwrap();
            let mut h = demo_halfway(dir.path(), file, [800.0, 480.0], lang);
            h.snapshot_options(format!("kiosk-{name}-{code}-800x480"), &options());
            results.extend(h.take_snapshot_results());
        }
    }
}
