//! The dice panel of the table screen: the tower link in plain words (how long it has been
//! unplugged, faults and lost dice while they matter), late tower dice waiting for the table's
//! one-tap decision, typed entry and virtual dice when no tower is connected. Every word in
//! both languages.
//!
//! Widgets are named for what they do: the text field "Typed dice", the buttons "Enter typed
//! dice", "Roll a virtual d6", "Roll virtual 2d6", "Roll a virtual d20", "Enter dice by hand",
//! "Retry logging the tower rolls", and for a late die "Use the late d6 for the request" and
//! "Keep the late d6 as a free roll".

use super::i18n::Lang;
use super::widgets::{ACTIVE, WARN, touch_height};
use crate::dice::{AsInput, DiceService, TowerInput, TowerTone, core_roll, dice_text};
use cards::core::{DieSource, Roll};
use cards::matches::LateAnswer;
use egui::{Button, Color32, Key, RichText, TextEdit, Ui, Vec2};
use hardware::dice::parse_entry;
use std::time::{Duration, Instant};

/// Colour of a connected tower.
const GOOD: Color32 = Color32::from_rgb(120, 200, 120);

/// Virtual dice offered as buttons: (count, sides, button text, accessible name).
const VIRTUAL: [(usize, u8, &str, &str); 3] = [
    (1, 6, "d6", "Roll a virtual d6"),
    (2, 6, "2d6", "Roll virtual 2d6"),
    (1, 20, "d20", "Roll a virtual d20"),
];

/// What the panel keeps between frames.
#[derive(Debug, Default)]
pub(crate) struct DicePanel {
    /// The text in the typed-entry field.
    pub entry: String,
    /// Why the last typed entry or roll did not go in, in words.
    pub error: Option<String>,
    /// Tower inputs the match log did not take yet (a store error), oldest first.
    pub unlogged: Vec<TowerInput>,
    /// Why the oldest of `unlogged` was not logged.
    pub unlogged_error: Option<String>,
    /// Typed entry and virtual dice shown although a tower is connected.
    pub by_hand: bool,
}

/// What the players asked of the panel this frame.
pub(crate) enum DiceTap {
    /// Log these rolls, in order.
    Rolls(Vec<Roll>),
    /// Log the tower rolls that failed before.
    RetryUnlogged,
}

/// "d6 = 4 (typed)", as the log writes it.
pub(crate) fn describe(item: &impl AsInput) -> String {
    item.describe()
}

/// Whether a roll came from the tower.
pub(crate) fn from_tower(roll: &Roll) -> bool {
    matches!(roll.source, DieSource::Tower { .. })
}

/// Draws the panel. `known_sides` is the die the oldest open die prompt asks for, so values
/// alone (`4`) can be typed. The table calls [`DiceService::observe`] every frame, the panel
/// shown or not, so late dice and losses find the match on screen.
pub(crate) fn dice_panel(
    ui: &mut Ui,
    panel: &mut DicePanel,
    dice: &mut DiceService,
    known_sides: Option<u8>,
    lang: Lang,
    kiosk: bool,
) -> Option<DiceTap> {
    let t = lang.t();
    let now = Instant::now();
    if let Some(next) = dice.next_change_in(now) {
        // "unplugged for 3 min", "thrown 20 s ago", a notice to clear: keep them true.
        ui.ctx().request_repaint_after(next);
    }
    let height = touch_height(ui, 40.0);
    let mut tap = None;
    let status = dice.status_in(lang, now);
    let colour = tone_colour(ui, status.tone);
    ui.horizontal(|ui| {
        ui.label(RichText::new(t.dice).size(24.0).strong());
        ui.add(
            egui::Label::new(
                RichText::new(tower_words(&status.headline, lang))
                    .size(17.0)
                    .color(colour),
            )
            .wrap(),
        );
    });
    for line in &status.details {
        ui.add(egui::Label::new(RichText::new(tower_words(line, lang)).size(14.0).weak()).wrap());
    }
    for notice in dice.notices(lang, now) {
        let text = RichText::new(notice.text).size(15.0);
        let text = if notice.warn { text.color(WARN) } else { text };
        ui.add(egui::Label::new(text).wrap());
    }
    late_dice(ui, dice, lang, height, now);
    if !panel.unlogged.is_empty() {
        ui.add(
            egui::Label::new(
                RichText::new(
                    lang.tower_not_logged_yet(
                        panel.unlogged.len(),
                        panel.unlogged_error.as_deref(),
                    ),
                )
                .size(15.0)
                .color(WARN),
            )
            .wrap(),
        );
        let retry = ui
            .add(Button::new(RichText::new(t.retry).size(18.0)).min_size(Vec2::new(110.0, height)))
            .accessible_name("Retry logging the tower rolls");
        if retry.clicked() {
            tap = Some(DiceTap::RetryUnlogged);
        }
    }

    let manual = !dice.tower_connected() || panel.by_hand;
    if dice.tower_connected() {
        let text = if panel.by_hand {
            t.hide_hand_entry
        } else {
            t.by_hand
        };
        let toggle = ui
            .add(Button::new(RichText::new(text).size(16.0)).min_size(Vec2::new(0.0, height)))
            .accessible_name("Enter dice by hand");
        if toggle.clicked() {
            panel.by_hand = !panel.by_hand;
        }
    }
    if manual {
        // The die-face pad: one tap enters a die read at the table (no keyboard needed).
        if let Some(t) = die_pad(ui, panel, known_sides.unwrap_or(6), lang) {
            tap = Some(t);
        }
        ui.horizontal(|ui| {
            let hint = match known_sides {
                Some(s) => format!("4, or d{s} 4"),
                None => "d6 4 · 2d6 3 5".to_owned(),
            };
            let field = ui
                .add(
                    TextEdit::singleline(&mut panel.entry)
                        .hint_text(hint)
                        .desired_width((ui.available_width() - 100.0).max(80.0))
                        .font(egui::FontId::proportional(20.0)),
                )
                .accessible_name("Typed dice");
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            let button = ui
                .add(
                    Button::new(RichText::new(t.enter).size(19.0))
                        .min_size(Vec2::new(88.0, height.max(44.0))),
                )
                .accessible_name("Enter typed dice");
            if entered || button.clicked() {
                match parse_entry(&panel.entry, known_sides) {
                    Ok(rolls) => {
                        panel.error = None;
                        tap = Some(DiceTap::Rolls(rolls.iter().map(core_roll).collect()));
                    }
                    Err(e) => panel.error = Some(e.to_string()),
                }
            }
        });
        let row = Vec2::new(ui.available_width(), height.max(44.0));
        let centred = egui::Layout::left_to_right(egui::Align::Center);
        ui.allocate_ui_with_layout(row, centred, |ui| {
            ui.label(RichText::new(t.virtual_dice).size(16.0).weak());
            for (count, sides, text, name) in VIRTUAL {
                // The R key rolls the d6 (kiosk mode): shown on its button.
                let text = if kiosk && count == 1 && sides == 6 {
                    format!("[R] {text}")
                } else {
                    text.to_owned()
                };
                let button = ui
                    .add(
                        Button::new(RichText::new(text).size(19.0))
                            .min_size(Vec2::new(64.0, height.max(44.0))),
                    )
                    .accessible_name(name);
                if button.clicked() {
                    match dice.roll_virtual(count, sides) {
                        Ok(rolls) => {
                            panel.error = None;
                            tap = Some(DiceTap::Rolls(rolls));
                        }
                        Err(e) => panel.error = Some(e.to_string()),
                    }
                }
            }
        });
    }
    if let Some(e) = &panel.error {
        ui.add(egui::Label::new(RichText::new(e).size(16.0).color(WARN)).wrap());
    }
    tap
}

/// A late die's buttons take taps only this long after it arrived: its card pushes down what
/// was below it, and a tap meant for that must not decide the die.
const LATE_ARMED_AFTER: Duration = Duration::from_millis(600);

/// The late dice held for the table: what each is, when it was thrown, and one tap to use it
/// for the open request or keep it as a free roll.
fn late_dice(ui: &mut Ui, dice: &mut DiceService, lang: Lang, height: f32, now: Instant) {
    let mut decision = None;
    for late in dice.late_rolls() {
        let request = dice.request_for(&late.roll);
        let shown = now.saturating_duration_since(late.received_at);
        let armed = shown >= LATE_ARMED_AFTER;
        if !armed {
            ui.ctx().request_repaint_after(LATE_ARMED_AFTER - shown);
        }
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(1.5, ACTIVE))
            .show(ui, |ui| {
                ui.add(
                    egui::Label::new(
                        RichText::new(lang.late_roll(
                            &dice_text(&late.roll),
                            now.saturating_duration_since(late.thrown_at),
                            late.offline,
                        ))
                        .size(16.0)
                        .color(ACTIVE),
                    )
                    .wrap(),
                );
                ui.add(
                    egui::Label::new(RichText::new(lang.late_roll_waits()).size(14.0).weak())
                        .wrap(),
                );
                let sides = late.roll.sides;
                // Side by side, so the card stays short on the 800×480 screen.
                let gap = ui.spacing().item_spacing.x;
                let width = if request.is_some() {
                    (ui.available_width() - gap) / 2.0
                } else {
                    ui.available_width()
                };
                let size = Vec2::new(width, height.max(48.0));
                ui.horizontal(|ui| {
                    if let Some(request) = request {
                        let text = RichText::new(lang.late_use_for(&request.text)).size(16.0);
                        let use_it = ui
                            .add_enabled_ui(armed, |ui| {
                                ui.add_sized(size, Button::new(text).wrap())
                            })
                            .inner
                            .accessible_name(format!("Use the late d{sides} for the request"));
                        if use_it.clicked() {
                            decision = Some((late.id, LateAnswer::Prompt(request.id.clone())));
                        }
                    }
                    let text = RichText::new(lang.late_keep_free()).size(16.0);
                    let keep = ui
                        .add_enabled_ui(armed, |ui| ui.add_sized(size, Button::new(text).wrap()))
                        .inner
                        .accessible_name(format!("Keep the late d{sides} as a free roll"));
                    if keep.clicked() {
                        decision = Some((late.id, LateAnswer::Free));
                    }
                });
            });
    }
    if let Some((id, answer)) = decision {
        dice.decide_late(id, answer);
        // The decided die goes to the log with the next frame's poll.
        ui.ctx().request_repaint();
    }
}

/// What the dice panel holds that the table must see now, for the compact layout (800×480),
/// where the panel is behind "Log & dice": late dice waiting for a tap, dice lost or a tower
/// fault to act on. `None` when nothing is. Keeps the window drawing while it can change
/// with time alone.
pub(crate) fn attention(ui: &Ui, dice: &DiceService, lang: Lang) -> Option<String> {
    let now = Instant::now();
    if let Some(next) = dice.next_change_in(now) {
        ui.ctx().request_repaint_after(next);
    }
    let late = dice.late_rolls().len();
    let warned = dice.notices(lang, now).iter().any(|n| n.warn);
    (late > 0 || warned).then(|| lang.dice_attention(late))
}

/// The die-face pad: one button per face of the die (`sides`), a tap enters the die as read at
/// the table (a typed roll), no keyboard needed. Named "Typed d6 = 4" / "手入力 d6 = 4".
pub(crate) fn die_pad(
    ui: &mut Ui,
    panel: &mut DicePanel,
    sides: u8,
    lang: Lang,
) -> Option<DiceTap> {
    let caption = lang.pick(
        format!("Die read at the table: d{sides}"),
        format!("卓で読んだ出目: d{sides}"),
    );
    ui.label(RichText::new(caption).size(16.0).weak());
    let height = touch_height(ui, 44.0);
    let face = Vec2::new(44.0, height);
    let mut tapped = None;
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing = Vec2::splat(4.0);
        ui.horizontal_wrapped(|ui| {
            for v in 1..=sides {
                let name = lang.pick(
                    format!("Typed d{sides} = {v}"),
                    format!("手入力 d{sides} = {v}"),
                );
                let face_tap = ui
                    .add_sized(face, Button::new(RichText::new(v.to_string()).size(21.0)))
                    .accessible_name(name);
                if face_tap.clicked() {
                    tapped = Some(v);
                }
            }
        });
    });
    let v = tapped?;
    match parse_entry(&format!("d{sides} {v}"), None) {
        Ok(rolls) => {
            panel.error = None;
            Some(DiceTap::Rolls(rolls.iter().map(core_roll).collect()))
        }
        Err(e) => {
            panel.error = Some(e.to_string());
            None
        }
    }
}

/// The tower link in words (headline and first detail), for the start screen's devices.
pub(crate) fn tower_line(dice: &DiceService, lang: Lang) -> (String, Option<String>) {
    if !dice.tower_requested() {
        return (lang.t().no_tower.to_owned(), None);
    }
    let status = dice.status_in(lang, Instant::now());
    (status.headline.clone(), status.details.first().cloned())
}

/// The tower link in one line at the bottom of the start screen (only when `--tower` was given),
/// so a missing tower is seen before a match starts.
pub(crate) fn tower_status_bar(ui: &mut Ui, dice: &DiceService, lang: Lang) {
    if !dice.tower_requested() {
        return;
    }
    let now = Instant::now();
    if let Some(next) = dice.next_change_in(now) {
        ui.ctx().request_repaint_after(next);
    }
    let status = dice.status_in(lang, now);
    let colour = tone_colour(ui, status.tone);
    egui::Panel::bottom("tower-status").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!("{}:", lang.t().dice_tower))
                    .size(16.0)
                    .weak(),
            );
            ui.label(RichText::new(&status.headline).size(17.0).color(colour));
            if let Some(first) = status.details.first() {
                ui.label(RichText::new(first).size(14.0).weak());
            }
        });
    });
}

fn tone_colour(ui: &Ui, tone: TowerTone) -> Color32 {
    match tone {
        TowerTone::Off => ui.visuals().weak_text_color(),
        TowerTone::Busy => ACTIVE,
        TowerTone::Good => GOOD,
        TowerTone::Problem => WARN,
    }
}

/// The tower link's words in the window's language (the link reports them in English): the
/// headlines and the usual details; a detail naming a device or an error is kept as it is, after
/// its Japanese lead.
pub(crate) fn tower_words(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_owned();
    }
    const WORDS: [(&str, &str); 14] = [
        ("No dice tower", "ダイスタワーなし"),
        (
            "Type the dice or roll virtual ones.",
            "出目を入力するか、仮想ダイスを振ってください。",
        ),
        (
            "The tower link could not start",
            "タワーとの接続を開始できません",
        ),
        ("Connected to a printing tower", "タワーに接続しました"),
        ("Connected to tower ", "接続中のタワー: "),
        (
            "The tower link is stopped",
            "タワーとの接続は停止しています",
        ),
        ("Tower not found", "タワーが見つかりません"),
        (
            "Tower unplugged: waiting for it",
            "タワーが外れました: 再接続を待っています",
        ),
        (
            "The port does not answer like a tower",
            "このポートはタワーとして応答しません",
        ),
        (
            "Tower connection lost: reconnecting",
            "タワーとの接続が切れました: 再接続中",
        ),
        ("Looking for the tower", "タワーを探しています"),
        ("Opening the tower at ", "タワーを開いています: "),
        ("Rolls #", "タワーが失った出目 #"),
        ("tower fault: ", "タワーの故障: "),
    ];
    for (en, ja) in WORDS {
        if text == en {
            return ja.to_owned();
        }
        if let Some(rest) = text.strip_prefix(en)
            && en.ends_with([' ', '#', ':'])
        {
            return format!("{ja}{rest}");
        }
    }
    text.to_owned()
}
