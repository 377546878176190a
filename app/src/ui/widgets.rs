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
    // A narrow (800 px) window: 44 px targets (8 mm on a 7" screen) and smaller text.
    let compact = ui.ctx().content_rect().width() < 900.0;
    let height = if compact {
        touch_height(ui, 44.0).min(48.0)
    } else {
        touch_height(ui, ACTION_HEIGHT)
    };
    let size = if compact { 17.0 } else { 20.0 };
    ui.add(
        Button::new(RichText::new(keyed(text, key)).size(size))
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
            if !caption.is_empty() {
                ui.label(RichText::new(caption).size(15.0).weak());
            }
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

/// True for a character of Japanese text (kana, kanji, full-width forms, Japanese punctuation).
fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
}

/// Katakana (and the long-vowel mark): the letters of a loanword such as トラッシュ.
fn is_katakana(c: char) -> bool {
    matches!(c, '\u{30a0}'..='\u{30ff}' | '\u{ff66}'..='\u{ff9f}')
}

/// Characters a line may not start with (kinsoku): closing brackets, punctuation, small kana,
/// the long-vowel mark, voicing marks.
fn no_line_start(c: char) -> bool {
    "、。，．・：；？！）」』】〕〉》］｝ー゛゜ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.:;!?)]}%"
        .contains(c)
}

/// Characters a line may not end with: opening brackets.
fn no_line_end(c: char) -> bool {
    "（「『【〔〈《［｛([{".contains(c)
}

/// Whether a line may break between `a` and `b`: at spaces, between Japanese characters, but
/// never inside a katakana word or a Latin word or number, never before a closing mark or
/// after an opening one.
pub(crate) fn may_break(a: char, b: char) -> bool {
    if a.is_whitespace() {
        return true;
    }
    if b.is_whitespace() || no_line_start(b) || no_line_end(a) {
        return false;
    }
    if is_katakana(a) && is_katakana(b) {
        return false;
    }
    if a.is_ascii_alphanumeric() && (b.is_ascii_alphanumeric() || b.is_ascii_punctuation()) {
        return false;
    }
    if a.is_ascii_punctuation() && b.is_ascii_alphanumeric() {
        return false;
    }
    is_japanese(a) || is_japanese(b)
}

/// Splits `text` into lines no wider than `width` (as `measure` says), breaking only where
/// [`may_break`] allows; a unit wider than the line stays whole on its own line.
pub(crate) fn kinsoku_lines(
    text: &str,
    width: f32,
    mut measure: impl FnMut(&str) -> f32,
) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut units: Vec<String> = Vec::new();
    let mut unit = String::new();
    for (i, c) in chars.iter().enumerate() {
        unit.push(*c);
        let next = chars.get(i + 1);
        if next.is_none_or(|n| may_break(*c, *n)) {
            units.push(std::mem::take(&mut unit));
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for u in units {
        let candidate = format!("{line}{u}");
        if !line.is_empty() && measure(candidate.trim_end()) > width {
            lines.push(line.trim_end().to_owned());
            line = u.trim_start().to_owned();
        } else {
            line = candidate;
        }
    }
    if !line.trim().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_owned());
    }
    lines
}

/// A wrapped label of `size` (and `color`) whose Japanese lines break only at safe points
/// ([`may_break`]: never inside トラッシュ, never before 。); English wraps as egui wraps it.
pub(crate) fn wrapped(
    ui: &mut Ui,
    text: &str,
    size: f32,
    color: Option<Color32>,
    lang: Lang,
) -> Response {
    let shown = if lang == Lang::Ja && text.chars().any(is_japanese) {
        let font = egui::FontId::proportional(size);
        let width = ui.available_width().max(40.0);
        ui.fonts_mut(|f| {
            kinsoku_lines(text, width, |s| {
                f.layout_no_wrap(s.to_owned(), font.clone(), Color32::WHITE)
                    .size()
                    .x
            })
        })
        .join("\n")
    } else {
        text.to_owned()
    };
    let mut rich = RichText::new(shown).size(size);
    if let Some(c) = color {
        rich = rich.color(c);
    }
    ui.add(Label::new(rich).wrap())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each character is 1 wide.
    fn lines(text: &str, width: f32) -> Vec<String> {
        kinsoku_lines(text, width, |s| s.chars().count() as f32)
    }

    #[test]
    fn japanese_lines_never_break_inside_a_katakana_word_or_before_punctuation() {
        let l = lines("カードをトラッシュに置く。", 6.0);
        assert!(l.iter().any(|x| x.contains("トラッシュ")), "{l:?}");
        assert!(!l.iter().any(|x| x.starts_with('。')), "{l:?}");
        assert_eq!(l.concat(), "カードをトラッシュに置く。");
        let l = lines("Aki: place a monster face down", 12.0);
        assert!(l.iter().all(|x| !x.starts_with(' ')), "{l:?}");
        assert!(l.iter().any(|x| x.contains("monster")), "{l:?}");
    }

    #[test]
    fn a_unit_wider_than_the_line_stays_whole() {
        assert_eq!(
            lines("スペースジャンク", 3.0),
            vec!["スペースジャンク".to_owned()]
        );
        assert_eq!(lines("", 3.0), vec![String::new()]);
    }
}
