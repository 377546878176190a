//! The table screen: battle and phase bar, player columns, legal moves, log, dialogs, result.

use super::camera::{CameraDesk, CameraTap};
use super::dice_panel::{DicePanel, DiceTap, attention, describe, dice_panel, die_pad, from_tower};
use super::games::{self, GameUi};
use super::i18n::Lang;
use super::keyboard::{Keyboard, number_pad, text_entry};
use super::view::{Intent, MoveTarget, PanelMemory, Taps, View, is_choice, is_reveal};
use super::widgets::{ACCENT, WARN, chip, key_button, section, wide_button, wide_key_button};
use crate::dice::{DiceService, TowerInput, roll_input};
use crate::session::{Session, SubmitError};
use crate::store::Store;
use cards::core::{DieSource, Outcome, PromptKind, Roll, Tracker, Violation};
use cards::matches::{Action, LogLine, Rejection};
use egui::{Button, Frame, Id, Key, Modal, RichText, ScrollArea, Stroke, TextEdit, Ui, Vec2};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// What the table screen asks of the app.
pub(crate) enum TableAction {
    /// Back to the start screen; the match stays stored and can be resumed.
    Leave,
    /// Switch the window's language.
    ToggleLang,
    /// The match is over and the players want another.
    NewMatch,
    /// The battle of a JUNK-KEN draft is over: the draft goes on with this match.
    NextBattle(Box<cards::game::MatchHeader>),
}

/// A dialog over the table.
enum Dialog {
    /// The rules refused a move.
    Refused {
        /// The input as submitted.
        input: Value,
        /// The broken rules.
        violations: Vec<Violation>,
        /// True once "Override…" was tapped.
        overriding: bool,
        /// The override reason being typed.
        reason: String,
        /// The on-screen keyboard of the reason.
        keyboard: Keyboard,
        /// "Apply" was tapped with no reason: say so.
        missing: bool,
    },
    /// A manual correction of a tracked number.
    Adjust {
        tracker: Tracker,
        who: String,
        value: String,
        reason: String,
        error: Option<String>,
        /// The on-screen keyboard of the reason.
        keyboard: Keyboard,
        /// "Save" was tapped with no reason: say so.
        missing: bool,
    },
    /// A move that ends a player's options ("plays nothing"), asked again before it is sent.
    Confirm {
        /// The move's input.
        input: Value,
        /// Its button text.
        label: String,
    },
    /// A message (an impossible move, a store error).
    Notice { title: String, message: String },
}

/// The table screen of a live match.
pub(crate) struct TableScreen {
    session: Session,
    dialog: Option<Dialog>,
    /// What the game's panel keeps between frames (emptied after every accepted input).
    forms: PanelMemory,
    dice: DicePanel,
    /// The log and dice shown instead of the table (compact layout).
    show_log: bool,
    /// The language of the last frame (for dialogs opened after it).
    lang: Lang,
    /// The camera's status, questions and notes.
    camera: CameraDesk,
    /// The window's context once a frame was drawn (the camera thread wakes it).
    wake: std::sync::Arc<std::sync::OnceLock<egui::Context>>,
    /// Where each offered move could be tapped in the last frame (see [`MoveTarget`]).
    targets: Vec<MoveTarget>,
    /// The logged inputs (JSON), read back from the store for the log in Japanese; refreshed
    /// when the log grows or shrinks.
    inputs: Vec<Value>,
    /// The step on the phase bar and when it began (ms since the Unix epoch): the match's last
    /// update (its newest entry) when the step was first seen (a JUNK-KEN draft's 5 minutes of deck building).
    step_began: Option<(String, i64)>,
}

/// Below this width (the 800×480 touch display) the table uses its compact layout.
pub(crate) const COMPACT_WIDTH: f32 = 900.0;

impl TableScreen {
    /// Shows a live session.
    pub(crate) fn new(session: Session) -> Self {
        TableScreen {
            session,
            dialog: None,
            forms: PanelMemory::default(),
            dice: DicePanel::default(),
            show_log: false,
            lang: Lang::default(),
            camera: CameraDesk::default(),
            wake: std::sync::Arc::default(),
            targets: Vec::new(),
            inputs: Vec::new(),
            step_began: None,
        }
    }

    /// Where each offered move could be tapped in the last frame.
    pub(crate) fn targets(&self) -> &[MoveTarget] {
        &self.targets
    }

    /// Watches the table through the camera.
    pub(crate) fn watch(&mut self, service: crate::vision::VisionService) {
        self.camera = CameraDesk::watching(service);
    }

    /// A note in the camera panel (e.g. no mat layout).
    pub(crate) fn camera_note(&mut self, text: String) {
        self.camera.warn(text);
    }

    /// What the camera thread calls to repaint the window.
    pub(crate) fn waker(&self) -> impl Fn() + Send + 'static {
        let cell = std::sync::Arc::clone(&self.wake);
        move || {
            if let Some(ctx) = cell.get() {
                ctx.request_repaint();
            }
        }
    }

    /// The match.
    pub(crate) fn session(&self) -> &Session {
        &self.session
    }

    /// Gives the store back.
    pub(crate) fn into_store(self) -> Store {
        self.session.into_store()
    }

    /// Logs the tower rolls that arrived since the last frame (before the frame is drawn, so
    /// it shows them), then draws the screen and acts on what was tapped.
    pub(crate) fn show(
        &mut self,
        ui: &mut Ui,
        dice: &mut DiceService,
        tower_rolls: Vec<TowerInput>,
        lang: Lang,
        kiosk: bool,
    ) -> Option<TableAction> {
        self.lang = lang;
        let _ = self.wake.set(ui.ctx().clone());
        // Cards seen on the mat: each unambiguous move is applied as if tapped.
        while self.dialog.is_none()
            && let Some(input) = self.camera.next_move(self.session.game())
        {
            self.submit(&input);
        }
        if !self.dice.unlogged.is_empty() {
            // Older rolls are still waiting for the log: keep the order, log on "Retry".
            self.dice.unlogged.extend(tower_rolls);
        } else {
            self.log_tower_rolls(tower_rolls);
        }
        let mut taps = Taps {
            intents: Vec::new(),
            shown: BTreeSet::new(),
            targets: Vec::new(),
        };
        let compact = ui.available_width() < COMPACT_WIDTH;
        if lang == Lang::Ja && self.inputs.len() != self.session.game().len() {
            self.inputs = self
                .session
                .store()
                .entries(self.session.id())
                .map(|entries| {
                    entries
                        .iter()
                        .map(|e| serde_json::from_str(&e.input_json).unwrap_or(Value::Null))
                        .collect()
                })
                .unwrap_or_default();
        }
        let inputs = &self.inputs;
        // Keys act only when no text field has the keyboard (a reason being typed).
        let keys = kiosk && !ui.ctx().egui_wants_keyboard_input();
        {
            let game = self.session.game();
            // Every frame, the panel shown or not: a late die is placed in this log, and a
            // loss is logged in it.
            dice.observe(game);
            let ctx = game.context();
            if self.step_began.as_ref().map(|(s, _)| s) != Some(&ctx.phase.step) {
                // The newest entry's time: one row, not the log.
                let at = self
                    .session
                    .store()
                    .get(self.session.id())
                    .map_or_else(|_| crate::session::now_ms(), |r| r.updated_ms);
                self.step_began = Some((ctx.phase.step.clone(), at));
            }
            let step_began_ms = self.step_began.as_ref().map(|(_, at)| *at);
            let trackers = game.trackers();
            let actions = game.actions();
            let log = game.log();
            let outcome = game.outcome();
            let game_ui = games::of(game.game());
            let keyed: Vec<&Action> = std::iter::once(None)
                .chain((0..ctx.players.len()).map(Some))
                .flat_map(|seat| {
                    actions
                        .iter()
                        .filter(move |a| a.player == seat && !is_reveal(a))
                })
                .collect();
            // The next step, not a choice: a BG declaration is never the primary move, nor a
            // move that ends a player's options or drops an effect (asked again when tapped).
            // Where the game knows the likely move (an effect whose condition holds, with the
            // card's printed numbers), that is the primary move.
            let suggested = (game_ui.suggest)(game, &mut self.forms);
            let plain = |a: &&&Action| !is_choice(a) && !needs_confirmation(game_ui, a);
            let primary = suggested.as_ref().or_else(|| {
                keyed
                    .iter()
                    .filter(plain)
                    .find(|a| a.player.is_some() && a.player == ctx.active)
                    .or_else(|| keyed.iter().find(plain))
                    .copied()
            });
            let view = View {
                ctx: &ctx,
                trackers: &trackers,
                actions: &actions,
                label: game_ui.label,
                game,
                over: outcome.is_some(),
                lang,
                kiosk,
                compact,
                keyed,
                primary,
                prompt: game_ui.prompt,
                tracker_ja: game_ui.tracker_ja,
                step_began_ms,
            };
            let id = self.session.id();
            // Compact, the dice panel is hidden behind "Log & dice": say when it needs the table.
            let alert = (compact && !self.show_log)
                .then(|| attention(ui, dice, lang))
                .flatten();
            top_bar(
                ui,
                &view,
                game_ui,
                &format!("{} · #{id}", games::title(game.game().as_str())),
                self.show_log,
                alert.as_deref(),
                &mut taps,
            );
            let known_sides = ctx.prompts.iter().find_map(|p| match p.kind {
                PromptKind::Die { sides } => Some(sides),
                _ => None,
            });
            let mut side = |ui: &mut Ui, taps: &mut Taps| {
                ui.add_space(4.0);
                // 800×480: "Undo last" first, above the dice (it would be pushed off the
                // screen below them).
                if compact {
                    log_header(ui, &view, &log, taps);
                }
                if let Some(tap) = dice_panel(ui, &mut self.dice, dice, known_sides, lang, kiosk) {
                    taps.intents.push(Intent::Dice(tap));
                }
                match self.camera.panel(ui, lang) {
                    Some(CameraTap::Submit(input)) => taps.intents.push(Intent::Submit(input)),
                    Some(CameraTap::Dismiss) => taps.intents.push(Intent::CameraDismiss),
                    None => {}
                }
                ui.separator();
                if compact {
                    log_list(ui, &view, &log, inputs);
                } else {
                    log_panel(ui, &view, &log, inputs, taps);
                }
            };
            if compact && self.show_log {
                egui::CentralPanel::default().show(ui, |ui| side(ui, &mut taps));
            } else {
                if !compact {
                    egui::Panel::right("table-log")
                        .resizable(!kiosk)
                        .default_size(340.0)
                        .min_size(260.0)
                        .show(ui, |ui| side(ui, &mut taps));
                }
                egui::CentralPanel::default().show(ui, |ui| {
                    ScrollArea::vertical()
                        .id_salt("table")
                        .auto_shrink(false)
                        .show(ui, |ui| {
                            // Room for the scroll bar, which floats over the content.
                            ui.set_max_width(ui.available_width() - 18.0);
                            if let Some(outcome) = &outcome {
                                result_banner(ui, &view, outcome, &mut taps);
                            }
                            prompts(ui, &view);
                            // Compact: the die a prompt asks for is entered here, not behind
                            // the log button.
                            if compact
                                && let Some(sides) = known_sides
                                && let Some(tap) = die_pad(ui, &mut self.dice, sides, lang)
                            {
                                taps.intents.push(Intent::Dice(tap));
                            }
                            (game_ui.panel)(ui, &view, game_ui, &mut taps, &mut self.forms);
                            other_numbers(ui, &view, &mut taps);
                        });
                });
            }
            if keys && self.dialog.is_none() {
                key_intents(ui, &view, dice, &mut taps);
            }
        }
        let mut from_dialog = false;
        if let Some(dialog) = &mut self.dialog
            && let Some(result) = show_dialog(ui.ctx(), dialog, lang, kiosk)
        {
            match result {
                DialogResult::Close => self.dialog = None,
                DialogResult::Submit(input) => {
                    from_dialog = true;
                    taps.intents.insert(0, Intent::Submit(input));
                }
            }
        }
        self.targets = std::mem::take(&mut taps.targets);
        let intent = taps.intents.into_iter().next()?;
        match intent {
            Intent::Submit(input) if from_dialog => self.submit(&input),
            Intent::Submit(input) => {
                let game = self.session.game();
                let game_ui = games::of(game.game());
                let asked = game
                    .actions()
                    .into_iter()
                    .chain(game.refused_actions())
                    .find(|a| a.input == input && needs_confirmation(game_ui, a));
                match asked {
                    Some(action) => {
                        let view_label = action.label.clone();
                        self.dialog = Some(Dialog::Confirm {
                            label: self.confirm_label(&action).unwrap_or(view_label),
                            input,
                        });
                    }
                    None => self.submit(&input),
                }
            }
            Intent::Dice(DiceTap::Rolls(rolls)) => self.log_dice(rolls),
            Intent::Dice(DiceTap::RetryUnlogged) => {
                let rolls = std::mem::take(&mut self.dice.unlogged);
                self.dice.unlogged_error = None;
                self.log_tower_rolls(rolls);
            }
            Intent::Adjust { tracker, who } => {
                self.dialog = Some(Dialog::Adjust {
                    value: tracker.value.to_string(),
                    tracker,
                    who,
                    reason: String::new(),
                    error: None,
                    keyboard: Keyboard::for_lang(lang, false),
                    missing: false,
                });
            }
            Intent::Notice(message) => {
                self.dialog = Some(Dialog::Notice {
                    title: lang.t().cannot_enter.to_owned(),
                    message,
                });
            }
            Intent::Leave => return Some(TableAction::Leave),
            Intent::NewMatch => return Some(TableAction::NewMatch),
            Intent::NextBattle(header) => return Some(TableAction::NextBattle(header)),
            Intent::ToggleLang => return Some(TableAction::ToggleLang),
            Intent::ToggleLog => self.show_log = !self.show_log,
            Intent::CameraDismiss => self.camera.answered(),
        }
        None
    }

    /// Logs tower rolls in order. A roll the store does not take stays (with the rest after
    /// it) for "Retry"; a roll the match refuses (it cannot, a tower die is always a die) is
    /// reported in the dice panel.
    fn log_tower_rolls(&mut self, rolls: Vec<TowerInput>) {
        let mut rolls = rolls.into_iter();
        while let Some(roll) = rolls.next() {
            match self.session.submit(&roll_input(&roll)) {
                Ok(_) => {}
                Err(SubmitError::Store(e)) => {
                    self.dice.unlogged_error = Some(e.to_string());
                    self.dice.unlogged.push(roll);
                    self.dice.unlogged.extend(rolls);
                    return;
                }
                Err(SubmitError::Rejected(e)) => {
                    self.dice.error = Some(self.lang.pick(
                        format!("The tower roll {} was not logged: {e}", describe(&roll)),
                        format!(
                            "タワーの出目 {} は記録されませんでした: {e}",
                            describe(&roll)
                        ),
                    ));
                }
            }
        }
    }

    /// Logs typed or virtual dice in order; stops at the first one not taken and says why in
    /// the dice panel. The typed text is cleared once all of it went in.
    fn log_dice(&mut self, mut rolls: Vec<Roll>) {
        let typed = rolls.iter().any(|r| r.source == DieSource::Typed);
        // One entry or one tap is one throw: it answers at most one prompt. Its id is the log
        // position of its first die, unique within the match.
        let throw = Some(self.session.game().len() as u64);
        for roll in &mut rolls {
            roll.throw = throw;
        }
        for roll in &rolls {
            debug_assert!(!from_tower(roll));
            if let Err(e) = self.session.submit(&roll_input(roll)) {
                let why = match e {
                    // The store's message says whether it was undone or is in doubt (a
                    // failing disk): never claim "nothing changed" on its behalf.
                    SubmitError::Store(e) => e.to_string(),
                    SubmitError::Rejected(e) => e.to_string(),
                };
                self.dice.error = Some(self.lang.pick(
                    format!("{} was not logged: {why}", describe(roll)),
                    format!("{} は記録されませんでした: {why}", describe(roll)),
                ));
                return;
            }
        }
        self.dice.error = None;
        if typed {
            self.dice.entry.clear();
        }
    }

    /// Submits an input as a tap would, without a dialog: its log position, or why not.
    pub(crate) fn submit_input(&mut self, input: &Value) -> Result<u64, String> {
        let seq = self.session.submit(input).map_err(|e| e.to_string())?;
        self.dialog = None;
        self.forms.clear();
        Ok(seq)
    }

    /// Submits an input; on refusal or error, opens the matching dialog.
    fn submit(&mut self, input: &Value) {
        let result = self.session.submit(input);
        let message = match result {
            Ok(_) => {
                self.dialog = None;
                self.forms.clear();
                return;
            }
            Err(SubmitError::Rejected(Rejection::Refused { violations })) => {
                self.dialog = Some(Dialog::Refused {
                    input: input.clone(),
                    violations,
                    overriding: false,
                    reason: String::new(),
                    keyboard: Keyboard::for_lang(self.lang, false),
                    missing: false,
                });
                return;
            }
            Err(SubmitError::Rejected(Rejection::Impossible(e))) => e.reason,
            Err(SubmitError::Rejected(Rejection::Malformed(e))) => self.lang.pick(
                format!("The app built an input the game does not read: {e}"),
                format!("アプリがゲームの読めない入力を作りました: {e}"),
            ),
            Err(SubmitError::Store(e)) => self.lang.pick(
                format!("The match log did not take the entry, so nothing changed: {e}"),
                format!("対戦記録が受け付けなかったため、何も変わっていません: {e}"),
            ),
        };
        if let Some(Dialog::Adjust { error, .. }) = &mut self.dialog {
            *error = Some(message);
        } else {
            self.dialog = Some(Dialog::Notice {
                title: self.lang.t().not_possible.to_owned(),
                message,
            });
        }
    }
}

impl TableScreen {
    /// A move's button text in the window's language, for the confirmation dialog.
    fn confirm_label(&self, action: &Action) -> Option<String> {
        let game = self.session.game();
        let game_ui = games::of(game.game());
        let ctx = game.context();
        let trackers = game.trackers();
        let actions = game.actions();
        let view = View {
            ctx: &ctx,
            trackers: &trackers,
            actions: &actions,
            label: game_ui.label,
            game,
            over: false,
            lang: self.lang,
            kiosk: false,
            compact: false,
            keyed: Vec::new(),
            primary: None,
            prompt: game_ui.prompt,
            tracker_ja: game_ui.tracker_ja,
            step_began_ms: None,
        };
        Some((game_ui.label)(&view, action))
    }
}

/// True for a move that ends a player's options or drops an effect ("plays nothing", "no
/// effect"): the game's entry lists their types; a tap asks again before it is sent.
fn needs_confirmation(game: &GameUi, action: &Action) -> bool {
    action
        .input
        .pointer("/move/type")
        .and_then(Value::as_str)
        .is_some_and(|t| game.confirm.contains(&t))
}

/// Battle number, phase bar, current and next step, language and "Leave table".
/// `alert`: what the dice panel needs while it is hidden (compact layout).
fn top_bar(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    title: &str,
    log_shown: bool,
    alert: Option<&str>,
    taps: &mut Taps,
) {
    let t = view.lang.t();
    let k = |key: &'static str| view.kiosk.then_some(key);
    egui::Panel::top("table-top").show(ui, |ui| {
        ui.add_space(if view.compact { 2.0 } else { 4.0 });
        ui.horizontal(|ui| {
            if !view.compact {
                ui.label(RichText::new(title).size(18.0).weak());
                ui.add_space(12.0);
            }
            let turn = view.tracker(None, "turn");
            let turn = if (game.turn_counted)(view) {
                turn
            } else {
                // Not counting yet (a draft before its battle): nowhere on screen.
                if let Some(t) = turn {
                    taps.shown.insert(t.id.clone());
                }
                None
            };
            // "/ 10" only where the game has a set number of turns, not a mere sanity cap.
            let of = turn
                .filter(|t| t.max <= 50)
                .map(|t| format!(" / {}", t.max))
                .unwrap_or_default();
            let battle = (game.turn)(view, &of);
            let size = if view.compact { 24.0 } else { 32.0 };
            ui.add(egui::Label::new(RichText::new(&battle).size(size).strong()))
                .accessible_name(battle);
            if let Some(t) = turn {
                taps.edit(ui, view, t);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if key_button(ui, t.leave_table, None, 0.0).clicked() {
                    taps.intents.push(Intent::Leave);
                }
                if !view.compact {
                    ui.label(RichText::new(t.stays_saved).size(14.0).weak());
                }
                if key_button(ui, t.other_language, k("L"), 0.0).clicked() {
                    taps.intents.push(Intent::ToggleLang);
                }
                if view.compact {
                    let text = if log_shown { t.hide_log } else { t.show_log };
                    if key_button(ui, text, None, 0.0).clicked() {
                        taps.intents.push(Intent::ToggleLog);
                    }
                    // To the button's left: it moves nothing the players tap.
                    if let Some(alert) = alert {
                        let note = egui::Label::new(RichText::new(alert).size(16.0).color(WARN))
                            .truncate()
                            .sense(egui::Sense::click());
                        if ui.add(note).clicked() {
                            taps.intents.push(Intent::ToggleLog);
                        }
                    }
                }
            });
        });
        let (step, next) = (game.steps)(view);
        if view.compact {
            // One line: the step and the next one, cut short rather than wrapped, so the
            // moves below never move when the text changes.
            let line = format!("{} {step}  ›  {} {next}", t.now, t.next);
            ui.add(egui::Label::new(RichText::new(line).size(17.0)).truncate());
        } else {
            ui.horizontal_wrapped(|ui| {
                for (i, phase) in view.ctx.phase.phases.iter().enumerate() {
                    let shown = match view.lang {
                        Lang::Ja => (game.phase_ja)(phase)
                            .map(str::to_owned)
                            .or_else(|| super::view::japanese_part(phase))
                            .unwrap_or_else(|| phase.clone()),
                        Lang::En => phase.clone(),
                    };
                    chip(ui, &shown, i == view.ctx.phase.current, 18.0);
                    if i + 1 < view.ctx.phase.phases.len() {
                        ui.label(RichText::new("›").size(20.0).weak());
                    }
                }
            });
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(t.now).size(18.0).weak());
                ui.label(RichText::new(step).size(20.0).strong());
                ui.add_space(16.0);
                ui.label(RichText::new(t.next).size(18.0).weak());
                ui.label(RichText::new(next).size(18.0));
            });
        }
        if view.kiosk && !view.compact {
            ui.label(RichText::new(t.keys_help).size(14.0).weak());
        }
        ui.add_space(4.0);
    });
}

/// The log as a timeline, with "Undo last".
fn log_panel(ui: &mut Ui, view: &View<'_>, log: &[LogLine], inputs: &[Value], taps: &mut Taps) {
    log_header(ui, view, log, taps);
    ui.separator();
    log_list(ui, view, log, inputs);
}

/// The log's title and "Undo last".
fn log_header(ui: &mut Ui, view: &View<'_>, log: &[LogLine], taps: &mut Taps) {
    let t = view.lang.t();
    ui.horizontal(|ui| {
        ui.label(RichText::new(t.log).size(24.0).strong());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let text = match view.kiosk {
                true => format!("[U] {}", t.undo_last),
                false => t.undo_last.to_owned(),
            };
            let height = super::widgets::touch_height(ui, 40.0);
            let undo = ui
                .add_enabled(
                    !log.is_empty(),
                    Button::new(RichText::new(text).size(19.0)).min_size(Vec2::new(130.0, height)),
                )
                .accessible_name(t.undo_last);
            if undo.clicked() {
                taps.intents.push(Intent::Submit(json!({"input": "undo"})));
            }
        });
    });
}

/// The log's lines, oldest first, scrolled to the newest.
fn log_list(ui: &mut Ui, view: &View<'_>, log: &[LogLine], inputs: &[Value]) {
    let t = view.lang.t();
    ScrollArea::vertical()
        .id_salt("log")
        .stick_to_bottom(true)
        .auto_shrink(false)
        .show(ui, |ui| {
            if log.is_empty() {
                ui.label(RichText::new(t.nothing_yet).weak());
            }
            for line in log {
                let input = usize::try_from(line.seq).ok().and_then(|i| inputs.get(i));
                log_line(ui, view, line, input);
            }
        });
}

/// A log line in the window's language: the rules core writes it in English; in Japanese it
/// is written again from the logged input (a move as the game's entry names it, a die, a
/// correction, an undo).
fn log_text(view: &View<'_>, line: &LogLine, input: Option<&Value>) -> String {
    let (Lang::Ja, Some(input)) = (view.lang, input) else {
        return line.text.clone();
    };
    match input["input"].as_str() {
        Some("move") => {
            let action = Action {
                player: input
                    .pointer("/move/player")
                    .and_then(Value::as_u64)
                    .and_then(|p| usize::try_from(p).ok()),
                label: line.text.clone(),
                input: input.clone(),
            };
            let text = (view.label)(view, &action);
            match input["override_reason"].as_str() {
                Some(why) => format!("{text}(ルール無視の理由: {why})"),
                None => text,
            }
        }
        Some("roll") => {
            let roll = &input["roll"];
            let source = match roll.pointer("/source/kind").and_then(Value::as_str) {
                Some("typed") => "手入力",
                Some("virtual") => "仮想ダイス",
                Some("tower") => "ダイスタワー",
                _ => "ダイス",
            };
            format!(
                "ダイス d{} = {}({source})",
                roll["sides"].as_u64().unwrap_or(0),
                roll["value"].as_u64().unwrap_or(0)
            )
        }
        Some("adjust") => {
            let who = input
                .pointer("/tracker/player")
                .and_then(Value::as_u64)
                .and_then(|p| usize::try_from(p).ok());
            let name = input
                .pointer("/tracker/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            let label = view
                .tracker(who, name)
                .map(|t| super::view::tracker_label(view, t))
                .unwrap_or_else(|| name.to_owned());
            format!(
                "訂正: {}{label} → {}(理由: {})",
                view.who(who),
                input["value"],
                input["reason"].as_str().unwrap_or("")
            )
        }
        Some("undo") => match input["reason"].as_str() {
            Some(why) => format!("直前の記録を取り消し(理由: {why})"),
            None => "直前の記録を取り消し".to_owned(),
        },
        _ => line.text.clone(),
    }
}

fn log_line(ui: &mut Ui, view: &View<'_>, line: &LogLine, input: Option<&Value>) {
    let lang = view.lang;
    let shown = log_text(view, line, input);
    let mut text = RichText::new(format!("#{} {shown}", line.seq)).size(16.0);
    if line.undone {
        text = text.strikethrough().weak();
    }
    ui.add(egui::Label::new(text).wrap());
    if line.undone {
        ui.label(RichText::new(lang.t().undone).size(13.0).weak());
    }
    for v in &line.overridden {
        ui.add(
            egui::Label::new(
                RichText::new(lang.override_of(&v.rule, &v.sentence, &v.reference))
                    .size(14.0)
                    .color(WARN),
            )
            .wrap(),
        );
    }
}

/// Keys for the main actions (kiosk mode, GPIO buttons mapped to keys): Space/Enter the
/// primary move, 1–9 the moves in the order shown, U undo, R a virtual die (the one the oldest
/// open prompt asks for, else a d6), L the language.
fn key_intents(ui: &Ui, view: &View<'_>, dice: &mut DiceService, taps: &mut Taps) {
    const DIGITS: [Key; 9] = [
        Key::Num1,
        Key::Num2,
        Key::Num3,
        Key::Num4,
        Key::Num5,
        Key::Num6,
        Key::Num7,
        Key::Num8,
        Key::Num9,
    ];
    let pressed = |key: Key| ui.input(|i| i.key_pressed(key));
    if pressed(Key::Space) || pressed(Key::Enter) {
        match view.primary {
            Some(a) => taps.intents.push(Intent::Submit(a.input.clone())),
            None if view.over => taps.intents.push(Intent::NewMatch),
            None => {}
        }
    }
    for (key, action) in DIGITS.iter().zip(&view.keyed) {
        if pressed(*key) {
            taps.intents.push(Intent::Submit(action.input.clone()));
        }
    }
    if pressed(Key::U) {
        taps.intents.push(Intent::Submit(json!({"input": "undo"})));
    }
    if pressed(Key::R) {
        // The die the oldest open prompt asks for, else a d6.
        let sides = view
            .ctx
            .prompts
            .iter()
            .find_map(|p| match p.kind {
                PromptKind::Die { sides } => Some(sides),
                _ => None,
            })
            .unwrap_or(6);
        match dice.roll_virtual(1, sides) {
            Ok(rolls) => taps.intents.push(Intent::Dice(DiceTap::Rolls(rolls))),
            Err(e) => taps.intents.push(Intent::Notice(e.to_string())),
        }
    }
    if pressed(Key::L) {
        taps.intents.push(Intent::ToggleLang);
    }
}

/// The open prompts of the whole table ("Play janken"); a player's own prompts are in that
/// player's area, so answering one never moves another player's buttons.
fn prompts(ui: &mut Ui, view: &View<'_>) {
    if !view.ctx.prompts.iter().any(|p| p.player.is_none()) {
        return;
    }
    if view.compact {
        for p in view.ctx.prompts.iter().filter(|p| p.player.is_none()) {
            let text = format!("▶ {}", (view.prompt)(view, p));
            ui.add(egui::Label::new(RichText::new(text).size(17.0)).truncate());
        }
        return;
    }
    Frame::new()
        .fill(ui.visuals().faint_bg_color)
        .corner_radius(6.0)
        .inner_margin(8.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(view.lang.t().waiting_for).size(15.0).weak());
            for p in view.ctx.prompts.iter().filter(|p| p.player.is_none()) {
                let text = (view.prompt)(view, p);
                ui.add(egui::Label::new(RichText::new(format!("• {text}")).size(19.0)).wrap());
            }
        });
}

/// The winner and the reason, big, with "Undo" and "New match".
fn result_banner(ui: &mut Ui, view: &View<'_>, outcome: &Outcome, taps: &mut Taps) {
    let t = view.lang.t();
    let (headline, reason) = match outcome {
        Outcome::Win { winner, reason } => (view.lang.wins(view.name(*winner)), reason),
        Outcome::Draw { reason } => (t.draw.to_owned(), reason),
    };
    Frame::new()
        .stroke(Stroke::new(4.0, ACCENT))
        .corner_radius(10.0)
        .inner_margin(16.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.vertical_centered(|ui| {
                ui.label(RichText::new(t.match_over).size(22.0).weak());
                ui.label(RichText::new(&headline).size(60.0).strong().color(ACCENT));
                let game_ui = games::of(view.game.game());
                ui.label(RichText::new((game_ui.outcome)(view, reason)).size(26.0));
                ui.add_space(10.0);
                ui.horizontal(|ui| {
                    let width = ui.available_width();
                    ui.add_space((width - 2.0 * 220.0 - 20.0).max(0.0) / 2.0);
                    let k = view.kiosk.then_some("U");
                    if wide_key_button(ui, t.undo, k, 220.0, true).clicked() {
                        taps.intents.push(Intent::Submit(json!({"input": "undo"})));
                    }
                    let k = view.kiosk.then_some("Space");
                    if wide_key_button(ui, t.new_match, k, 220.0, true).clicked() {
                        taps.intents.push(Intent::NewMatch);
                    }
                });
                // A draft goes on: the exchange, pack purchase 2 and the next battle.
                if let Some(next) = games::junk_ken::next_battle_header(view.game) {
                    ui.add_space(8.0);
                    let label = view.lang.pick(
                        "Next battle of the draft (exchange, pack purchase 2)",
                        "ドラフトの次の対戦へ(交換、パック購入フェーズ2)",
                    );
                    if wide_key_button(ui, label, None, 460.0, true).clicked() {
                        taps.intents.push(Intent::NextBattle(Box::new(next)));
                    }
                }
            });
        });
    ui.add_space(8.0);
}

/// Any tracked number the columns did not show, so every number stays correctable.
fn other_numbers(ui: &mut Ui, view: &View<'_>, taps: &mut Taps) {
    let rest: Vec<&Tracker> = view
        .trackers
        .iter()
        .filter(|t| !taps.shown.contains(&t.id))
        .collect();
    if rest.is_empty() {
        return;
    }
    section(ui, view.lang.t().other_numbers, |ui| {
        for t in rest {
            ui.horizontal(|ui| {
                taps.tracked(
                    ui,
                    view,
                    t.id.player,
                    &t.id.name,
                    &format!("{}{}", view.who(t.id.player), t.label),
                    24.0,
                )
            });
        }
    });
}

/// One-tap override reasons (English, Japanese).
const OVERRIDE_REASONS: &[(&str, &str)] = &[
    ("Agreed by both players", "両者が合意"),
    ("House rule", "ハウスルール"),
    ("A card's effect allows it", "カードの効果で可能"),
    ("Misread at the table", "卓での読み違い"),
];

/// One-tap correction reasons (English, Japanese).
const CORRECTION_REASONS: &[(&str, &str)] = &[
    ("Miscounted", "数え間違い"),
    ("A move was not entered", "入力漏れ"),
    ("A card effect resolved by hand", "カード効果を手で処理"),
    ("Chips moved by accident", "チップが動いてしまった"),
];

/// Said when "Apply"/"Save" is tapped without a reason: never silently nothing.
fn no_reason(lang: Lang) -> &'static str {
    lang.pick(
        "Choose a reason above or type one: the log keeps it.",
        "上の理由を選ぶか入力してください(記録に残ります)。",
    )
}

enum DialogResult {
    Close,
    Submit(Value),
}

fn show_dialog(
    ctx: &egui::Context,
    dialog: &mut Dialog,
    lang: Lang,
    kiosk: bool,
) -> Option<DialogResult> {
    let t = lang.t();
    let keys = kiosk && !ctx.egui_wants_keyboard_input();
    let pressed = |key: Key| keys && ctx.input(|i| i.key_pressed(key));
    let k = |key: &'static str| kiosk.then_some(key);
    let mut result = None;
    Modal::new(Id::unique("table-dialog")).show(ctx, |ui| {
        ui.set_max_width(ui.ctx().content_rect().width().min(760.0) - 40.0);
        ui.spacing_mut().item_spacing.y = 5.0;
        // Laid out to fit 800×480, keyboard open included (what the keys would cover is left
        // out while they are shown).
        ui.scope(|ui| match dialog {
            Dialog::Refused {
                input,
                violations,
                overriding,
                reason,
                keyboard,
                missing,
            } => {
                ui.label(RichText::new(t.refused).size(24.0).strong().color(WARN));
                ui.add_space(4.0);
                // Once overriding, the rule is one line: the reason and its keys need the room.
                for v in violations.iter().filter(|_| !keyboard.open) {
                    if *overriding {
                        ui.add(egui::Label::new(RichText::new(&v.sentence).size(16.0)).truncate());
                        continue;
                    }
                    super::widgets::wrapped(ui, &v.sentence, 20.0, None, lang);
                    ui.label(
                        RichText::new(lang.rule_ref(&v.rule, &v.reference))
                            .size(15.0)
                            .weak(),
                    );
                    ui.add_space(2.0);
                }
                ui.add_space(4.0);
                if *overriding {
                    if !keyboard.open && ui.ctx().content_rect().height() > 600.0 {
                        ui.label(RichText::new(t.override_why).size(16.0));
                    }
                    if text_entry(
                        ui,
                        lang,
                        t.override_reason,
                        reason,
                        keyboard,
                        OVERRIDE_REASONS,
                    ) {
                        *missing = false;
                    }
                    if *missing {
                        ui.label(RichText::new(no_reason(lang)).size(17.0).color(WARN));
                    }
                    ui.horizontal(|ui| {
                        if wide_button(ui, t.apply_override, 260.0, true).clicked() {
                            if reason.trim().is_empty() {
                                *missing = true;
                                ui.ctx().request_repaint();
                            } else {
                                let mut with_reason = input.clone();
                                if let Some(obj) = with_reason.as_object_mut() {
                                    obj.insert(
                                        "override_reason".to_owned(),
                                        Value::String(reason.trim().to_owned()),
                                    );
                                }
                                result = Some(DialogResult::Submit(with_reason));
                            }
                        }
                        if wide_button(ui, t.back, 140.0, true).clicked() {
                            *overriding = false;
                        }
                    });
                } else {
                    ui.horizontal(|ui| {
                        if wide_key_button(ui, t.undo_at_table, k("N"), 240.0, true).clicked()
                            || pressed(Key::N)
                        {
                            result = Some(DialogResult::Close);
                        }
                        if wide_key_button(ui, t.override_, k("Y"), 200.0, true).clicked()
                            || pressed(Key::Y)
                        {
                            *overriding = true;
                        }
                    });
                }
            }
            Dialog::Adjust {
                tracker,
                who,
                value,
                reason,
                error,
                keyboard,
                missing,
            } => {
                // Smaller with the keyboard open: the keys need the room.
                ui.label(
                    RichText::new(lang.correct(&format!("{who}{}", tracker.label)))
                        .size(if keyboard.open { 18.0 } else { 24.0 })
                        .strong(),
                );
                if !keyboard.open {
                    ui.label(
                        RichText::new(lang.adjust_range(tracker.value, tracker.min, tracker.max))
                            .size(16.0),
                    );
                }
                let parsed = value.trim().parse::<i32>().ok();
                // With the keyboard open the value stays as it is, out of the keys' way.
                if !keyboard.open {
                    ui.horizontal(|ui| {
                        let caption = ui.label(RichText::new(t.new_value).size(18.0));
                        let height = super::widgets::touch_height(ui, 38.0);
                        let minus = ui
                            .add_enabled(
                                parsed.is_some_and(|v| v > tracker.min),
                                Button::new(RichText::new("−").size(22.0))
                                    .min_size(Vec2::new(48.0, height)),
                            )
                            .accessible_name(format!("{} −1", t.new_value));
                        if minus.clicked()
                            && let Some(v) = parsed
                        {
                            *value = (v - 1).to_string();
                        }
                        ui.add(
                            TextEdit::singleline(value)
                                .desired_width(90.0)
                                .font(egui::FontId::proportional(24.0)),
                        )
                        .labelled_by(caption.id);
                        let plus = ui
                            .add_enabled(
                                parsed.is_some_and(|v| v < tracker.max),
                                Button::new(RichText::new("+").size(22.0))
                                    .min_size(Vec2::new(48.0, height)),
                            )
                            .accessible_name(format!("{} +1", t.new_value));
                        if plus.clicked()
                            && let Some(v) = parsed
                        {
                            *value = (v + 1).to_string();
                        }
                    });
                }
                if !keyboard.open {
                    number_pad(ui, lang, value);
                }
                if text_entry(
                    ui,
                    lang,
                    t.correction_reason,
                    reason,
                    keyboard,
                    CORRECTION_REASONS,
                ) {
                    *missing = false;
                }
                if let Some(e) = error {
                    ui.label(RichText::new(e.as_str()).size(17.0).color(WARN));
                } else if parsed.is_none() {
                    ui.label(RichText::new(t.whole_number).size(17.0).color(WARN));
                } else if *missing {
                    ui.label(RichText::new(no_reason(lang)).size(17.0).color(WARN));
                }
                ui.horizontal(|ui| {
                    if wide_button(ui, t.save_correction, 240.0, parsed.is_some()).clicked()
                        && let Some(v) = parsed
                    {
                        if reason.trim().is_empty() {
                            *missing = true;
                            ui.ctx().request_repaint();
                        } else {
                            match serde_json::to_value(&tracker.id) {
                                Ok(id) => {
                                    result = Some(DialogResult::Submit(json!({
                                        "input": "adjust",
                                        "tracker": id,
                                        "value": v,
                                        "reason": reason.trim(),
                                    })));
                                }
                                Err(e) => {
                                    *error =
                                        Some(format!("the correction could not be written: {e}"))
                                }
                            }
                        }
                    }
                    if wide_key_button(ui, t.cancel, k("N"), 140.0, true).clicked()
                        || pressed(Key::N)
                    {
                        result = Some(DialogResult::Close);
                    }
                });
            }
            Dialog::Confirm { input, label } => {
                ui.label(
                    RichText::new(lang.pick("Really?", "本当によいですか?"))
                        .size(26.0)
                        .strong()
                        .color(WARN),
                );
                ui.add(egui::Label::new(RichText::new(label.as_str()).size(21.0)).wrap());
                ui.label(
                    RichText::new(lang.pick(
                        "This ends the player's options for this step.",
                        "このステップでこのプレイヤーにできることはなくなります。",
                    ))
                    .size(17.0),
                );
                ui.add_space(6.0);
                ui.horizontal(|ui| {
                    let yes = lang.pick("Yes, enter it", "はい、記録する");
                    if wide_key_button(ui, yes, k("Y"), 240.0, true).clicked() || pressed(Key::Y) {
                        result = Some(DialogResult::Submit(input.clone()));
                    }
                    if wide_key_button(ui, t.cancel, k("N"), 160.0, true).clicked()
                        || pressed(Key::N)
                    {
                        result = Some(DialogResult::Close);
                    }
                });
            }
            Dialog::Notice { title, message } => {
                ui.label(
                    RichText::new(title.as_str())
                        .size(26.0)
                        .strong()
                        .color(WARN),
                );
                ui.add(egui::Label::new(RichText::new(message.as_str()).size(20.0)).wrap());
                ui.add_space(8.0);
                if wide_key_button(ui, t.ok, k("Y"), 140.0, true).clicked()
                    || pressed(Key::Y)
                    || pressed(Key::Enter)
                {
                    result = Some(DialogResult::Close);
                }
            }
        });
    });
    result
}
