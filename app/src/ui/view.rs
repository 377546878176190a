//! The table screen's shared vocabulary, below every game's panel: what one frame shows
//! ([`View`]), what was tapped ([`Taps`], [`Intent`]), what a panel keeps between frames
//! ([`PanelMemory`]), and the parts every panel draws (a player's frame, the name line, the
//! moves as buttons).

use super::dice_panel::DiceTap;
use super::i18n::Lang;
use super::widgets::{ACTIVE, action_button, big_number, chip, edit_button};
use cards::core::{MatchCtx, Seat, Tracker, TrackerId};
use cards::matches::{Action, AnyMatch};
use egui::{Frame, Rect, RichText, Stroke, Ui, Vec2};
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeSet;

/// Something a player tapped, acted on after the frame is drawn.
pub(crate) enum Intent {
    /// Submit this input (JSON of `cards::matches::Input`).
    Submit(Value),
    /// Typed or virtual dice (or the tower rolls to retry), each logged as a roll.
    Dice(DiceTap),
    /// Open the correction dialog for a tracked number.
    Adjust {
        /// The number.
        tracker: Tracker,
        /// "Aki's " or "" for a number of the whole game.
        who: String,
    },
    /// Show a message (an input that could not even be built).
    Notice(String),
    /// Leave the table.
    Leave,
    /// Start a new match.
    NewMatch,
    /// Start this match: the next battle of a JUNK-KEN draft.
    NextBattle(Box<cards::game::MatchHeader>),
    /// Switch the language.
    ToggleLang,
    /// Show or hide the log and dice (compact layout).
    ToggleLog,
    /// The card the camera asked about is not a move.
    CameraDismiss,
}

/// Read-only data of one frame, shared by the parts of the screen.
pub(crate) struct View<'a> {
    /// Players, turn, phase, prompts.
    pub ctx: &'a MatchCtx,
    /// Every tracked number.
    pub trackers: &'a [Tracker],
    /// The legal moves.
    pub actions: &'a [Action],
    /// A move's button text in the window's language (the game's own, from its entry in the
    /// table of games).
    pub label: fn(&View<'_>, &Action) -> String,
    /// The match itself (the generic panel's pickers and the moves that break a rule).
    pub game: &'a dyn AnyMatch,
    /// True once the match has an outcome.
    pub over: bool,
    /// The window's language.
    pub lang: Lang,
    /// Kiosk mode: keys are shown on the buttons they press.
    pub kiosk: bool,
    /// A narrow window (the 800 px touch display): smaller numbers, the log behind a button.
    pub compact: bool,
    /// The moves the number keys press, in the order shown (moves of the table, then by seat).
    pub keyed: Vec<&'a Action>,
    /// The move Space/Enter presses: the first move of the player to act, else the first one.
    pub primary: Option<&'a Action>,
    /// A prompt's text in the window's language (the game's entry).
    pub prompt: fn(&View<'_>, &cards::core::Prompt) -> String,
    /// The Japanese caption of a tracked number, by its name (the game's entry).
    pub tracker_ja: fn(&str) -> Option<&'static str>,
    /// When the current step began, in ms since the Unix epoch: the time of the entry that
    /// brought it (after a restart, of the newest entry); `None` where no clock is kept.
    pub step_began_ms: Option<i64>,
}

impl View<'_> {
    /// A tracker by owner and name.
    pub(crate) fn tracker(&self, seat: Option<Seat>, name: &str) -> Option<&Tracker> {
        self.trackers
            .iter()
            .find(|t| t.id.player == seat && t.id.name == name)
    }

    /// A player's name.
    pub(crate) fn name(&self, seat: Seat) -> &str {
        self.ctx.players.get(seat).map_or("?", String::as_str)
    }

    /// "Aki's " for a player's number, "" for a number of the whole game.
    pub(crate) fn who(&self, seat: Option<Seat>) -> String {
        seat.map(|s| self.lang.whose(self.name(s)))
            .unwrap_or_default()
    }

    /// The key shown on a move's button in kiosk mode ("1", "2/Space").
    pub(crate) fn key_of(&self, action: &Action) -> Option<String> {
        if !self.kiosk {
            return None;
        }
        let n = self.keyed.iter().position(|a| std::ptr::eq(*a, action))? + 1;
        let primary = self.primary.is_some_and(|p| std::ptr::eq(p, action));
        match (n <= 9, primary) {
            (true, true) => Some(format!("{n}/Space")),
            (true, false) => Some(n.to_string()),
            (false, true) => Some("Space".to_owned()),
            (false, false) => None,
        }
    }
}

/// Per-frame bookkeeping: what was tapped and which numbers were shown.
pub(crate) struct Taps {
    /// What was tapped, in order.
    pub intents: Vec<Intent>,
    /// Trackers drawn with their edit control.
    pub shown: BTreeSet<TrackerId>,
    /// Where each offered move can be tapped (its button, or the control leading to it).
    pub targets: Vec<MoveTarget>,
}

impl Taps {
    /// Notes that `action` is reached through the control at `rect`.
    pub(crate) fn target(&mut self, action: &Action, rect: Rect) {
        self.targets.push(MoveTarget {
            input: action.input.to_string(),
            rect,
        });
    }

    /// Shows "caption value [± edit]" for a tracker, if it exists now.
    pub(crate) fn tracked(
        &mut self,
        ui: &mut Ui,
        view: &View<'_>,
        seat: Option<Seat>,
        name: &str,
        caption: &str,
        size: f32,
    ) {
        let Some(t) = view.tracker(seat, name) else {
            return;
        };
        let who = view.who(seat);
        if view.compact {
            // One touch target "Hand 4": a tap corrects it. Smaller than the deciding number.
            let height = super::widgets::touch_height(ui, 40.0);
            let button = ui
                .add(
                    egui::Button::new(RichText::new(format!("{caption} {}", t.value)).size(19.0))
                        .min_size(Vec2::new(0.0, height)),
                )
                .accessible_name(format!("{who}{}: {}", t.label, t.value));
            if button.clicked() {
                self.intents.push(Intent::Adjust {
                    tracker: t.clone(),
                    who,
                });
            }
            self.shown.insert(t.id.clone());
            return;
        }
        // Whole labels move to the next row of a wrapped line, never half a word.
        ui.add(egui::Label::new(RichText::new(caption).size(17.0)).extend());
        big_number(ui, t.value, size, format!("{who}{}: {}", t.label, t.value));
        self.edit(ui, view, t);
    }

    /// A tracked number on its own row: the caption wraps in the room the number and its
    /// "± edit" leave, so long names (a Rockman EXE square's card) never run into the next
    /// column.
    pub(crate) fn tracked_row(
        &mut self,
        ui: &mut Ui,
        view: &View<'_>,
        seat: Option<Seat>,
        name: &str,
        caption: &str,
        size: f32,
    ) {
        let Some(t) = view.tracker(seat, name) else {
            return;
        };
        let size = if view.compact {
            (size * 0.75).max(24.0)
        } else {
            size
        };
        let who = view.who(seat);
        let digits = t.value.to_string().chars().count() as f32;
        let reserve = digits * size * 0.62 + 110.0;
        ui.horizontal(|ui| {
            let room = (ui.available_width() - reserve).max(80.0);
            ui.allocate_ui(Vec2::new(room, 0.0), |ui| {
                ui.set_max_width(room);
                ui.add(egui::Label::new(RichText::new(caption).size(17.0)).wrap());
            });
            big_number(ui, t.value, size, format!("{who}{}: {}", t.label, t.value));
            self.edit(ui, view, t);
        });
    }

    /// The "± edit" control of a tracker.
    pub(crate) fn edit(&mut self, ui: &mut Ui, view: &View<'_>, t: &Tracker) {
        let who = view.who(t.id.player);
        if edit_button(ui, t, &who, view.lang) {
            self.intents.push(Intent::Adjust {
                tracker: t.clone(),
                who,
            });
        }
        self.shown.insert(t.id.clone());
    }

    /// The legal moves of one player (or of the table, `None`) as large buttons.
    pub(crate) fn actions(
        &mut self,
        ui: &mut Ui,
        view: &View<'_>,
        seat: Option<Seat>,
        skip: impl Fn(&Action) -> bool,
    ) {
        let shown: Vec<&Action> = view
            .actions
            .iter()
            .filter(|a| a.player == seat && !skip(a))
            .collect();
        // Two buttons a row where the column is wide enough: more moves without scrolling.
        let two = shown.len() > 2 && ui.available_width() >= 520.0;
        let width = if two {
            (ui.available_width() - ui.spacing().item_spacing.x) / 2.0 - 0.5
        } else {
            ui.available_width()
        };
        let rows: Vec<&[&Action]> = shown.chunks(if two { 2 } else { 1 }).collect();
        for row in rows {
            ui.horizontal(|ui| {
                for action in row {
                    let label = (view.label)(view, action);
                    let key = view.key_of(action);
                    ui.allocate_ui(Vec2::new(width, 0.0), |ui| {
                        ui.set_max_width(width);
                        let button = action_button(ui, &label, key.as_deref());
                        self.target(action, button.rect);
                        if button.clicked() {
                            self.intents.push(Intent::Submit(action.input.clone()));
                        }
                    });
                }
            });
        }
    }
}

/// A player's column frame, outlined when that player is to act.
pub(crate) fn player_frame(ui: &mut Ui, view: &View<'_>, seat: Seat, add: impl FnOnce(&mut Ui)) {
    let active = view.ctx.active == Some(seat) && !view.over;
    // The same width either way: a frame that lights up never moves what is inside it.
    let stroke = if active {
        Stroke::new(3.0, ACTIVE)
    } else {
        Stroke::new(3.0, ui.visuals().widgets.noninteractive.bg_stroke.color)
    };
    Frame::new()
        .stroke(stroke)
        .corner_radius(8.0)
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            // ui.columns lays out justified, which would also justify wrapped text.
            ui.with_layout(egui::Layout::top_down(egui::Align::Min), add);
        });
}

/// The name line: name, parent marker, "to act".
pub(crate) fn name_line(
    ui: &mut Ui,
    view: &View<'_>,
    seat: Seat,
    parent_text: &str,
    child_text: &str,
) {
    name_line_with(ui, view, seat, parent_text, child_text, None, |_, _| {});
}

/// The name line with the number that decides the game: in a compact window on the same row
/// (the biggest thing in the player's area, first), otherwise on its own row below. `caption`
/// is said beside the number; `taps` gets its "± edit".
#[allow(clippy::too_many_arguments)]
pub(crate) fn name_line_with(
    ui: &mut Ui,
    view: &View<'_>,
    seat: Seat,
    parent_text: &str,
    child_text: &str,
    number: Option<(&Tracker, String, String)>,
    mut edit: impl FnMut(&mut Ui, &Tracker),
) {
    ui.horizontal(|ui| {
        let size = if view.compact { 22.0 } else { 30.0 };
        ui.add(egui::Label::new(RichText::new(view.name(seat)).size(size).strong()).truncate());
        if view.ctx.leader == Some(seat) && !parent_text.is_empty() {
            chip(ui, parent_text, true, 16.0);
        } else if view.ctx.leader.is_some() && !child_text.is_empty() {
            chip(ui, child_text, false, 16.0);
        }
        if view.ctx.active == Some(seat) && !view.over {
            ui.add(
                egui::Label::new(RichText::new(view.lang.t().to_act).size(16.0).color(ACTIVE))
                    .extend(),
            );
        }
        if view.compact
            && let Some((t, caption, name)) = &number
        {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                edit(ui, t);
                ui.add(egui::Label::new(RichText::new(caption.as_str()).size(18.0)).extend());
                big_number(ui, t.value, 56.0, name.clone());
            });
        }
    });
    if !view.compact
        && let Some((t, caption, name)) = &number
    {
        ui.horizontal(|ui| {
            big_number(ui, t.value, 80.0, name.clone());
            ui.vertical(|ui| {
                ui.add_space(12.0);
                ui.add(egui::Label::new(RichText::new(caption.as_str()).size(22.0)).extend());
                edit(ui, t);
            });
        });
    }
    player_prompts(ui, view, seat);
}

/// What the rules wait for from one player, in that player's own area: answering one
/// player's prompt never moves another player's buttons.
pub(crate) fn player_prompts(ui: &mut Ui, view: &View<'_>, seat: Seat) {
    // 800 px: a player with moves reads them on the buttons; the prompt is for the others.
    let has_moves = view.actions.iter().any(|a| a.player == Some(seat));
    for p in view
        .ctx
        .prompts
        .iter()
        .filter(|p| p.player == Some(seat) && !(view.compact && has_moves))
    {
        let text = (view.prompt)(view, p);
        if view.compact {
            // One line at 800 px: the moves below never move when it changes.
            ui.add(egui::Label::new(RichText::new(text).size(16.0).color(ACTIVE)).truncate());
        } else {
            super::widgets::wrapped(ui, &text, 16.0, Some(ACTIVE), view.lang);
        }
    }
}

/// A tracked number's caption in the window's language: the game's own Japanese where its
/// entry gives one, else the Japanese part of a bilingual label ("Hand 手札" → "手札").
pub(crate) fn tracker_label(view: &View<'_>, t: &Tracker) -> String {
    match view.lang {
        super::i18n::Lang::En => t.label.to_string(),
        super::i18n::Lang::Ja => (view.tracker_ja)(&t.id.name)
            .map(str::to_owned)
            .or_else(|| japanese_part(&t.label))
            .unwrap_or_else(|| t.label.to_string()),
    }
}

/// The Japanese of a label that holds both languages: from its first Japanese character to
/// its last ("Discard pile 捨札 (changed by moves)" → "捨札"); `None` without any.
pub(crate) fn japanese_part(label: &str) -> Option<String> {
    let japanese = |c: char| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ff01}'..='\u{ff5e}' | '々');
    let start = label.char_indices().find(|(_, c)| japanese(*c))?.0;
    let end = label
        .char_indices()
        .rfind(|(_, c)| japanese(*c))
        .map(|(i, c)| i + c.len_utf8())?;
    Some(label[start..end].to_owned())
}

/// What a game's panel keeps between frames (what the players are typing into its forms);
/// emptied after every accepted input.
#[derive(Default)]
pub(crate) struct PanelMemory(Option<Box<dyn Any + Send>>);

impl PanelMemory {
    /// The panel's forms of type `T`, made empty when the memory holds none (or another
    /// panel's).
    pub(crate) fn forms<T: Default + Send + 'static>(&mut self) -> Option<&mut T> {
        if !self.0.as_ref().is_some_and(|f| f.is::<T>()) {
            self.0 = Some(Box::new(T::default()));
        }
        self.0.as_mut()?.downcast_mut::<T>()
    }

    /// Empties every form.
    pub(crate) fn clear(&mut self) {
        self.0 = None;
    }
}

/// The type of a move, as the match script writes it (`reveal`, `declare-bg`).
fn move_type(action: &Action) -> Option<&str> {
    action.input.pointer("/move/type").and_then(Value::as_str)
}

/// True for a move that is a player's choice rather than the next step (declaring a BG): never
/// the move Space/Enter presses.
pub(crate) fn is_choice(action: &Action) -> bool {
    move_type(action) == Some("declare-bg")
}

/// True for a reveal move (offered through a picker, not as a numbered key).
pub(crate) fn is_reveal(action: &Action) -> bool {
    move_type(action) == Some("reveal")
}

/// Where a move offered by the rules can be reached on screen: the button that submits it, or
/// the control that leads to it (a stepper, a folded list, a picker).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTarget {
    /// The move's input, as JSON text (the rules core's `Action::input`).
    pub input: String,
    /// The control's rectangle in the last frame, in points.
    pub rect: Rect,
}
