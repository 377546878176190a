//! Small widgets for a table seen from a distance: big numbers, big buttons, steppers.
//!
//! Every interactive widget gets an accessible name that says what it does at the table
//! ("Aki's effect: own ATK +1"), so a screen reader, and the `egui_kittest` tests, can find it.

use super::i18n::Lang;
use cards::core::Tracker;
use egui::{Button, Color32, Frame, Label, Response, RichText, Stroke, Ui, Vec2};

/// Colour of the parent marker (親) and of highlighted steps.
pub(crate) const ACCENT: Color32 = Color32::from_rgb(232, 176, 60);
/// Colour of rule violations and refusals.
pub(crate) const WARN: Color32 = Color32::from_rgb(240, 120, 90);
/// Colour of the active player's frame.
pub(crate) const ACTIVE: Color32 = Color32::from_rgb(110, 190, 255);
/// Height of a main action button (one tap per action).
pub(crate) const ACTION_HEIGHT: f32 = 48.0;

/// A number meant to be read from across the table; `name` is what a screen reader says.
pub(crate) fn big_number(ui: &mut Ui, value: i32, size: f32, name: String) -> Response {
    ui.add(Label::new(
        RichText::new(value.to_string()).size(size).strong(),
    ))
    .accessible_name(name)
}

/// The height of a touch target: the style's interact height (48 px in kiosk mode).
pub(crate) fn touch_height(ui: &Ui, at_least: f32) -> f32 {
    ui.spacing().interact_size.y.max(at_least)
}

/// The button text with the key that presses it in kiosk mode ("[Space] Compare …").
fn keyed(text: &str, key: Option<&str>) -> String {
    match key {
        Some(k) => format!("[{k}] {text}"),
        None => text.to_owned(),
    }
}

/// A full-width action button with large text; `key` is shown on it in kiosk mode. Its
/// accessible name is `text` alone.
pub(crate) fn action_button(ui: &mut Ui, text: &str, key: Option<&str>) -> Response {
    let width = ui.available_width().max(120.0);
    let height = touch_height(ui, ACTION_HEIGHT);
    ui.add(
        Button::new(RichText::new(keyed(text, key)).size(20.0))
            .wrap()
            .min_size(Vec2::new(width, height)),
    )
    .accessible_name(text)
}

/// A large button with a fixed width (start, resume, result screen).
pub(crate) fn wide_button(ui: &mut Ui, text: &str, width: f32, enabled: bool) -> Response {
    wide_key_button(ui, text, None, width, enabled)
}

/// [`wide_button`] with the key that presses it shown on it.
pub(crate) fn wide_key_button(
    ui: &mut Ui,
    text: &str,
    key: Option<&str>,
    width: f32,
    enabled: bool,
) -> Response {
    let height = touch_height(ui, 52.0);
    ui.add_enabled(
        enabled,
        Button::new(RichText::new(keyed(text, key)).size(22.0).strong())
            .min_size(Vec2::new(width, height)),
    )
    .accessible_name(text)
}

/// A plain button of touch height, with its key shown (if any); named `text`.
pub(crate) fn key_button(ui: &mut Ui, text: &str, key: Option<&str>, width: f32) -> Response {
    let height = touch_height(ui, 40.0);
    ui.add(
        Button::new(RichText::new(keyed(text, key)).size(18.0)).min_size(Vec2::new(width, height)),
    )
    .accessible_name(text)
}

/// The small "± edit" control beside a tracked number. Returns true when tapped.
pub(crate) fn edit_button(ui: &mut Ui, tracker: &Tracker, who: &str, lang: Lang) -> bool {
    let height = touch_height(ui, 30.0);
    ui.add(Button::new(RichText::new(lang.t().edit).size(15.0)).min_size(Vec2::new(0.0, height)))
        .accessible_name(lang.edit(&format!("{who}{}", tracker.label)))
        .clicked()
}

/// "−  value  +" for a number a player enters (effect and BG forms).
///
/// The buttons are named "`{name}` −1" and "`{name}` +1".
pub(crate) fn stepper(ui: &mut Ui, caption: &str, name: &str, value: &mut i32, min: i32, max: i32) {
    let height = touch_height(ui, 36.0);
    ui.horizontal(|ui| {
        ui.add_sized(
            Vec2::new(130.0, 34.0),
            Label::new(RichText::new(caption).size(17.0)),
        );
        let minus = ui
            .add_enabled(
                *value > min,
                Button::new(RichText::new("−").size(22.0)).min_size(Vec2::new(48.0, height)),
            )
            .accessible_name(format!("{name} −1"));
        if minus.clicked() {
            *value -= 1;
        }
        let shown = if *value > 0 {
            format!("+{value}")
        } else {
            value.to_string()
        };
        ui.add_sized(
            Vec2::new(48.0, 34.0),
            Label::new(RichText::new(shown).size(22.0).strong()),
        )
        .accessible_name(format!("{name} = {value}"));
        let plus = ui
            .add_enabled(
                *value < max,
                Button::new(RichText::new("+").size(22.0)).min_size(Vec2::new(48.0, height)),
            )
            .accessible_name(format!("{name} +1"));
        if plus.clicked() {
            *value += 1;
        }
    });
}

/// A framed section with a caption.
pub(crate) fn section<R>(ui: &mut Ui, caption: &str, add: impl FnOnce(&mut Ui) -> R) -> R {
    Frame::group(ui.style())
        .stroke(Stroke::new(
            1.0,
            ui.visuals().widgets.noninteractive.bg_stroke.color,
        ))
        .inner_margin(8.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(caption).size(15.0).weak());
            add(ui)
        })
        .inner
}

/// A coloured chip (phase bar, parent marker).
pub(crate) fn chip(ui: &mut Ui, text: &str, highlighted: bool, size: f32) -> Response {
    let (fill, color) = if highlighted {
        (ACCENT, Color32::BLACK)
    } else {
        (ui.visuals().faint_bg_color, ui.visuals().text_color())
    };
    Frame::new()
        .fill(fill)
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(10, 4))
        .show(ui, |ui| {
            let text = RichText::new(text).size(size).color(color);
            ui.label(if highlighted { text.strong() } else { text });
        })
        .response
}
