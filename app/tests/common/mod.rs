//! What the window tests share: clicking, typing and looking as a player would, in an
//! `egui_kittest` harness of the whole app.

// Each test binary uses some of these.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tableside::ui::TablesideApp;

/// The window under test.
pub type H = Harness<'static, TablesideApp>;

/// The whole app in a headless window of `size`, its store at `db`, no tower, the embedded fonts
/// (`kiosk`: the Pi's touch kiosk).
pub fn open_window(db: &std::path::Path, size: [f32; 2], kiosk: bool) -> H {
    let app = TablesideApp::new(tableside::ui::UiOptions {
        db_path: db.to_path_buf(),
        kiosk,
        tower: None,
    });
    Harness::builder()
        .with_size(size)
        .with_context_setup(|ctx| {
            tableside::ui::prepare_context(ctx, tableside::ui::FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app)
}

/// Scrolls a widget into view and clicks it, as a player would.
#[track_caller]
pub fn click(h: &mut H, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

/// Replaces the text of a text field.
#[track_caller]
pub fn type_into(h: &mut H, label: &str, text: &str) {
    click(h, label);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// True when a widget shows `label` as its text, or carries it as its accessible name (the big
/// numbers are named "Aki: 10 SB", "Aki's Hand 手札: 6").
#[track_caller]
pub fn sees(h: &H, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
        || h.query_all_by(move |n| n.label().as_deref() == Some(label))
            .next()
            .is_some()
}

/// True when some widget's label contains `part`.
#[track_caller]
pub fn sees_part(h: &H, part: &str) -> bool {
    h.query_all_by_label_contains(part).next().is_some()
}

/// The inputs of one kind (`"roll"`, `"late-roll"`, `"dice-lost"`, …) the stored match log
/// holds, as JSON, in order: what survives a restart.
pub fn logged_inputs(session: &tableside::session::Session, kind: &str) -> Vec<serde_json::Value> {
    session
        .store()
        .entries(session.id())
        .unwrap()
        .iter()
        .map(|e| serde_json::from_str::<serde_json::Value>(&e.input_json).unwrap())
        .filter(|v| v["input"] == kind)
        .collect()
}
