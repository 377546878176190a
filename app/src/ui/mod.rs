//! The Tableside window (eframe/egui): start screen, table screen, result.
//!
//! [`run`] opens the window; [`TablesideApp`] is the whole app, and can be driven without a
//! window (the `egui_kittest` tests in `app/tests/ui_jaken.rs` do exactly that):
//!
//! - **Start**: the game (Jaken), both players' names and decks (from the embedded demo
//!   catalogue), the house rules, "Start"; and the unfinished matches of the store, the latest
//!   one offered first with a big "Resume" button.
//! - **Table**: per player the name, the parent marker (親 · OB), SB in numbers big enough to read
//!   from 1.5 m, hand and deck counts, the BG zone and the monster on the battle field; the
//!   battle number, the phase bar with the current step and the next one, the open prompts, the
//!   legal moves as large buttons grouped by player, forms for the moves that need numbers
//!   (effects, BG uses), a reveal picker, a "± edit" control on every tracked number, and the log
//!   as a timeline with "Undo last".
//! - **Refusals**: a move that breaks a rule shows each rule's sentence, id and reference, and
//!   offers "Undo at the table" or "Override…" with a reason, which is logged.
//! - **Result**: the winner and why, with "Undo" and "New match".
//! - **History** ([`history`]): win rates per game, player and deck, a step-by-step replay of
//!   any stored match, and its export as JSON or CSV ([`crate::export`]).
//! - **Language** ([`i18n`]): English or Japanese, switched at runtime, kept for the session.
//! - **Kiosk** (`--kiosk`): full screen, 48-px touch targets, and keys for the main actions
//!   (Space/Enter the next move, 1–9 the moves, U undo, R a virtual d6, Y/N in dialogs, L the
//!   language), written on the buttons, so GPIO buttons mapped to keys work.
//! - **Camera**: none in this build, said plainly on the start and table screens.
//! - Below 900 px of width (the 800×480 touch display) the table is compact.
//! - **Dice** (beside the log): the dice tower's link in plain words (no tower, looking for
//!   it, connected to device X with its last heartbeat and rolls received, not found, lost);
//!   when no tower is connected, a typed-entry field (`d6 4`, `2d6 3 5`; a bad entry says
//!   why) and virtual d6 / 2d6 / d20 buttons. Every roll is logged with its source.
//!
//! Every input goes through [`crate::session::Session::submit`], so it is stored before it
//! changes the match. The window draws on input; the dice tower's link thread wakes it
//! (`request_repaint`) when it sends a roll or a health change, and the window takes what
//! arrived once per frame ([`crate::dice::DiceService::poll`]). Tower rolls that arrive while
//! no match is open are counted, not logged.
//!
//! A store that cannot be opened (a damaged file, a file of another program) shows an error
//! screen naming the file and the reason; the file is left untouched.
//!
//! ```no_run
//! use tableside::ui::{run, UiOptions};
//! run(UiOptions { db_path: "tableside.sqlite3".into(), kiosk: false, tower: None })?;
//! # Ok::<(), anyhow::Error>(())
//! ```

mod camera;
mod club;
mod deck_editor;
mod dice_panel;
mod fonts;
pub(crate) mod games;
pub mod history;
pub mod i18n;
mod keyboard;
mod start;
mod table;
mod view;
mod widgets;

pub use fonts::{
    EMBEDDED_CJK_FONT, EMBEDDED_FONT_NAME, FontChoice, FontReport, SYSTEM_FONT_NAME,
    font_definitions, install_fonts, is_usable_font,
};

use crate::dice::{DiceService, TowerChoice};
use crate::session::Session;
use crate::store::Store;
use crate::vision::{CameraChoice, VisionService};
use cards::catalogue::Catalogue;
use egui::{RichText, Ui};
use hardware::vision::mat::MatLayout;
use history::{HistoryAction, HistoryScreen};
use i18n::Lang;
use start::{StartAction, StartForm, StartScreen};
use std::path::PathBuf;
use table::{TableAction, TableScreen};
pub use view::MoveTarget;
use widgets::{WARN, wide_button};

/// How the window is opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UiOptions {
    /// The match store file (`<data dir>/tableside.sqlite3`).
    pub db_path: PathBuf,
    /// Full screen, for a touch kiosk beside the table.
    pub kiosk: bool,
    /// The dice tower (`--tower PATH|auto`); without one, dice are typed or virtual.
    pub tower: Option<TowerChoice>,
}

/// Environment variable: when set, the window prints `first frame after N ms` (counted from
/// [`PROCESS_START`]) once its first frame is built, and closes. Used by the start-up benchmark.
pub const FIRST_FRAME_ENV: &str = "TABLESIDE_EXIT_AFTER_FIRST_FRAME";

/// When the process started; `main` sets it first thing.
pub static PROCESS_START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Environment variable: `embedded` makes the window use only the embedded Japanese font, to
/// see what a machine without CJK fonts shows.
pub const FONTS_ENV: &str = "TABLESIDE_FONTS";

/// Environment variable: `latest` makes the window resume the most recent unfinished match at
/// once (screenshots and the idle-CPU benchmark use it to open on the table screen).
pub const RESUME_ENV: &str = "TABLESIDE_RESUME";

/// Opens the Tableside window and runs it until it is closed.
pub fn run(options: UiOptions) -> anyhow::Result<()> {
    run_with_camera(options, CameraChoice::None)
}

/// [`run`], watching the table through `camera` during matches.
pub fn run_with_camera(options: UiOptions, camera: CameraChoice) -> anyhow::Result<()> {
    run_with_config(options, camera, WindowConfig::default())
}

/// What the config file gives the window: its language and house rules, and the file's
/// problem when it has one (the window then opens with the defaults, and says so on screen,
/// instead of not opening at all).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WindowConfig {
    /// The config file's `[ui] language` (`None`: `TABLESIDE_LANG`, else English).
    pub lang: Option<Lang>,
    /// The config file's house rules per game id, as a match header carries them.
    pub rules: std::collections::BTreeMap<String, serde_json::Value>,
    /// Why the config file could not be used.
    pub problem: Option<crate::config::ConfigError>,
}

impl WindowConfig {
    /// The window's part of a config file that loaded, or the defaults and the problem.
    pub fn from_loaded(
        loaded: Result<&crate::config::Config, &crate::config::ConfigError>,
    ) -> Self {
        match loaded {
            Ok(config) => WindowConfig {
                lang: Some(if config.ui.language == "ja" {
                    Lang::Ja
                } else {
                    Lang::En
                }),
                rules: cards::core::GameId::ALL
                    .iter()
                    .map(|g| (g.as_str().to_owned(), config.rules_json(*g)))
                    .filter(|(_, v)| !v.is_null())
                    .collect(),
                problem: None,
            },
            Err(e) => WindowConfig {
                problem: Some(e.clone()),
                ..WindowConfig::default()
            },
        }
    }
}

/// [`run_with_camera`], with what the config file says (or why it could not be read).
pub fn run_with_config(
    options: UiOptions,
    camera: CameraChoice,
    config: WindowConfig,
) -> anyhow::Result<()> {
    let fonts = match std::env::var(FONTS_ENV).as_deref() {
        Ok("embedded") => FontChoice::EmbeddedOnly,
        _ => FontChoice::SystemThenEmbedded,
    };
    let viewport = egui::ViewportBuilder::default()
        .with_title("Tableside")
        .with_app_id("tableside")
        .with_inner_size([1280.0, 800.0])
        .with_min_inner_size([640.0, 400.0])
        .with_fullscreen(options.kiosk);
    let native = eframe::NativeOptions {
        viewport,
        ..Default::default()
    };
    eframe::run_native(
        "Tableside",
        native,
        Box::new(move |cc| {
            prepare_context(&cc.egui_ctx, fonts);
            Ok(Box::new(
                TablesideApp::new(options)
                    .with_config(config)
                    .with_camera(camera),
            ))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the Tableside window: {e}"))
}

/// Which screen is shown.
enum Screen {
    /// The store could not be opened.
    StoreError {
        /// Why, as the store said it.
        message: String,
        /// The media is read-only: the history can still be opened, read-only.
        read_only: bool,
    },
    /// Start a match or resume one.
    Start(Box<StartScreen>),
    /// A match being played (or just finished).
    Table(Box<TableScreen>),
    /// The stored matches: win rates, replay, export.
    History(Box<HistoryScreen>),
    /// Only while switching screens.
    Switching,
}

/// Installs the fonts of `fonts` and the table's style (large text, touch-sized controls) in
/// `ctx`. Call it before the first frame.
pub fn prepare_context(ctx: &egui::Context, fonts: FontChoice) -> FontReport {
    let report = install_fonts(ctx, fonts);
    apply_style(ctx);
    report
}

/// The whole app: one value per window. Implements [`eframe::App`]; tests drive [`Self::show`]
/// in an `egui_kittest` harness whose context went through [`prepare_context`].
pub struct TablesideApp {
    db_path: PathBuf,
    kiosk: bool,
    form: StartForm,
    screen: Screen,
    first_frame_done: bool,
    tower: Option<TowerChoice>,
    /// Started on the first frame (the link needs the window's context to wake it).
    dice: Option<DiceService>,
    /// The window's language, kept for the session.
    lang: Lang,
    /// True once the kiosk's touch sizes are in the style.
    kiosk_style: bool,
    /// Where the camera's frames come from (none: every move is tapped).
    camera: CameraChoice,
    /// The config file's language, house rules and problem.
    config: WindowConfig,
    /// The config file's problem was read and put away.
    config_dismissed: bool,
}

impl TablesideApp {
    /// Opens the store at `options.db_path` (or prepares the error screen if it is refused).
    pub fn new(options: UiOptions) -> Self {
        let form = StartForm::new(Catalogue::jaken_demo().ok().as_ref());
        let mut app = TablesideApp {
            db_path: options.db_path,
            kiosk: options.kiosk,
            form,
            screen: Screen::Switching,
            first_frame_done: false,
            tower: options.tower,
            dice: None,
            lang: Lang::from_env(),
            kiosk_style: false,
            camera: CameraChoice::None,
            config: WindowConfig::default(),
            config_dismissed: false,
        };
        app.screen = app.open_start(None);
        if std::env::var(RESUME_ENV).as_deref() == Ok("latest") {
            app.resume_latest();
        }
        app
    }

    /// Uses the config file's language (unless `TABLESIDE_LANG` says otherwise) and house
    /// rules, and shows its problem on every screen until it is read.
    #[must_use]
    pub fn with_config(mut self, config: WindowConfig) -> Self {
        if std::env::var_os(i18n::LANG_ENV).is_none()
            && let Some(lang) = config.lang
        {
            self.lang = lang;
        }
        // Jaken's start form shows every house rule: it starts from the config file's.
        if let Some(rules) = config.rules.get(cards::core::GameId::Jaken.as_str())
            && let Ok(rules) = serde_json::from_value(rules.clone())
        {
            self.form.rules = rules;
        }
        self.config = config;
        self
    }

    /// The config file's house rules for a game (`null` when it gives none).
    pub fn house_rules(&self, game: cards::core::GameId) -> serde_json::Value {
        self.config
            .rules
            .get(game.as_str())
            .cloned()
            .unwrap_or(serde_json::Value::Null)
    }

    /// Puts the config file's house rules of the header's game under the ones the start form
    /// chose (the form wins where both set a rule).
    fn with_house_rules(&self, header: &mut cards::game::MatchHeader) {
        let serde_json::Value::Object(config) = self.house_rules(header.game) else {
            return;
        };
        let mut rules = match std::mem::take(&mut header.rules) {
            serde_json::Value::Object(chosen) => chosen,
            _ => serde_json::Map::new(),
        };
        for (key, value) in config {
            rules.entry(key).or_insert(value);
        }
        header.rules = serde_json::Value::Object(rules);
    }

    /// Submits an input to the match on the table as a tap would (the GPIO panel, tests);
    /// returns its log position, or why it was not taken.
    pub fn submit(&mut self, input: &serde_json::Value) -> Result<u64, String> {
        match &mut self.screen {
            Screen::Table(t) => t.submit_input(input),
            _ => Err("no match is on the table".to_owned()),
        }
    }

    /// Watches the table through `camera` during matches (the config file's `camera`).
    #[must_use]
    pub fn with_camera(mut self, camera: CameraChoice) -> Self {
        self.camera = camera;
        // A match resumed at start-up is already on the table.
        let mut screen = std::mem::replace(&mut self.screen, Screen::Switching);
        if let Screen::Table(table) = &mut screen {
            self.start_camera(table);
        }
        self.screen = screen;
        self
    }

    /// The table screen of a session, with the camera started when there is one.
    fn table(&self, session: Session) -> Screen {
        let mut table = TableScreen::new(session);
        self.start_camera(&mut table);
        Screen::Table(Box::new(table))
    }

    fn start_camera(&self, table: &mut TableScreen) {
        if self.camera == CameraChoice::None {
            return;
        }
        let game = table.session().game().game();
        match MatLayout::builtin(game) {
            Ok(layout) => {
                let registry = table.session().store().registry().ok();
                let service =
                    VisionService::start(self.camera.opener(), layout, registry, table.waker());
                table.watch(service);
            }
            Err(e) => table.camera_note(format!("no mat layout for {game}: {e}")),
        }
    }

    /// Resumes the unfinished match written last, if there is one (the one the start screen
    /// offers first).
    pub fn resume_latest(&mut self) {
        let latest = match &self.screen {
            Screen::Start(start) => start.latest(),
            _ => None,
        };
        if let Some(id) = latest {
            self.on_start(&egui::Context::default(), StartAction::Resume(id));
        }
    }

    /// The window's language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Sets the window's language.
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }

    /// The match being played, if the table screen is shown.
    pub fn session(&self) -> Option<&Session> {
        match &self.screen {
            Screen::Table(t) => Some(t.session()),
            _ => None,
        }
    }

    /// Where each move the rules offer could be tapped in the last frame of the table screen
    /// (empty on the other screens): the tests check that every one is on screen, unhidden.
    pub fn move_targets(&self) -> &[MoveTarget] {
        match &self.screen {
            Screen::Table(t) => t.targets(),
            _ => &[],
        }
    }

    /// The dice (tower link, virtual dice), once the first frame has started them.
    pub fn dice(&self) -> Option<&DiceService> {
        self.dice.as_ref()
    }

    /// The dice, mutably (tests seed the virtual dice with it).
    pub fn dice_mut(&mut self) -> Option<&mut DiceService> {
        self.dice.as_mut()
    }

    fn open_start(&self, message: Option<String>) -> Screen {
        match Store::open(&self.db_path) {
            Ok(store) => Screen::Start(Box::new(StartScreen::new(store, message))),
            Err(e) => Screen::StoreError {
                read_only: matches!(e, crate::store::StoreError::ReadOnlyMedia { .. }),
                message: store_error_text(&e),
            },
        }
    }

    /// The history of a store the app cannot write (read-only media), or the error screen.
    fn open_read_only_history(&self) -> Screen {
        match Store::open_read_only(&self.db_path) {
            Ok(store) => Screen::History(Box::new(HistoryScreen::new(store, self.lang))),
            Err(e) => Screen::StoreError {
                read_only: false,
                message: store_error_text(&e),
            },
        }
    }

    /// Draws the current screen and acts on what the players chose.
    pub fn show(&mut self, ui: &mut Ui) {
        if self.kiosk && !self.kiosk_style {
            // Touch targets of at least 48 px.
            self.kiosk_style = true;
            ui.ctx().all_styles_mut(|style| {
                style.spacing.interact_size.y = 48.0;
                style.spacing.icon_width = 28.0;
                style.spacing.icon_width_inner = 16.0;
            });
        }
        let lang = self.lang;
        let mut dice = match self.dice.take() {
            Some(dice) => dice,
            None => DiceService::for_window(self.tower.clone(), ui.ctx()),
        };
        if let Some(problem) = &self.config.problem
            && !self.config_dismissed
            && config_banner(ui, problem, self.lang)
        {
            self.config_dismissed = true;
        }
        let polled = dice.poll();
        if !polled.is_empty() {
            ui.ctx().request_repaint();
        }
        let mut tower_rolls = Some(polled.rolls);
        match &mut self.screen {
            Screen::StoreError { message, read_only } => {
                let (message, read_only) = (message.clone(), *read_only);
                match self.store_error(ui, &message, read_only, lang) {
                    Some(StoreErrorChoice::Retry) => self.screen = self.open_start(None),
                    Some(StoreErrorChoice::History) => {
                        self.screen = self.open_read_only_history();
                    }
                    None => {}
                }
            }
            Screen::Start(start) => {
                dice_panel::tower_status_bar(ui, &dice, lang);
                if let Some(action) = start.show(ui, &mut self.form, &dice, lang, self.kiosk) {
                    self.on_start(ui.ctx(), action);
                }
            }
            Screen::Table(table) => {
                // Leaving and "New match" both go back to the start screen; the match stays stored.
                let rolls = tower_rolls.take().unwrap_or_default();
                match table.show(ui, &mut dice, rolls, lang, self.kiosk) {
                    Some(TableAction::Leave | TableAction::NewMatch) => {
                        let screen = std::mem::replace(&mut self.screen, Screen::Switching);
                        if let Screen::Table(table) = screen {
                            self.screen =
                                Screen::Start(Box::new(StartScreen::new(table.into_store(), None)));
                        }
                    }
                    Some(TableAction::NextBattle(mut header)) => {
                        self.with_house_rules(&mut header);
                        let screen = std::mem::replace(&mut self.screen, Screen::Switching);
                        if let Screen::Table(table) = screen {
                            self.screen = match Session::start(table.into_store(), *header) {
                                Ok(session) => self.table(session),
                                Err(e) => {
                                    let why = self.lang.t().could_not_start;
                                    self.open_start(Some(format!("{why} {e}")))
                                }
                            };
                        }
                    }
                    Some(TableAction::ToggleLang) => self.lang = lang.toggled(),
                    None => {}
                }
            }
            Screen::History(history) => match history.show(ui, lang, self.kiosk) {
                Some(HistoryAction::Back) => {
                    let screen = std::mem::replace(&mut self.screen, Screen::Switching);
                    if let Screen::History(history) = screen {
                        self.screen = if history.store.is_read_only() {
                            // Opened from the read-only card's screen: back there (or, if the
                            // card is writable again, to the start screen).
                            self.open_start(None)
                        } else {
                            Screen::Start(Box::new(StartScreen::new(history.store, None)))
                        };
                    }
                }
                Some(HistoryAction::ToggleLang) => self.lang = lang.toggled(),
                None => {}
            },
            Screen::Switching => {
                self.screen = self.open_start(None);
            }
        }
        if let Some(dropped) = tower_rolls {
            dice.note_dropped(dropped.len());
        }
        self.dice = Some(dice);
    }

    fn on_start(&mut self, ctx: &egui::Context, action: StartAction) {
        let screen = std::mem::replace(&mut self.screen, Screen::Switching);
        let Screen::Start(start) = screen else {
            self.screen = screen;
            return;
        };
        self.screen = match action {
            StartAction::Quit => {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                Screen::Start(start)
            }
            StartAction::ToggleLang => {
                self.lang = self.lang.toggled();
                Screen::Start(start)
            }
            StartAction::History => {
                Screen::History(Box::new(HistoryScreen::new(start.store, self.lang)))
            }
            StartAction::Discard(id) => {
                let mut store = start.store;
                let message = store
                    .finish(id, start::ABANDONED, crate::session::now_ms())
                    .err()
                    .map(|e| format!("#{id}: {e}"));
                Screen::Start(Box::new(StartScreen::new(store, message)))
            }
            StartAction::Start(mut header) => {
                self.with_house_rules(&mut header);
                match Session::start(start.store, header) {
                    Ok(session) => self.table(session),
                    Err(e) => {
                        let why = self.lang.t().could_not_start;
                        self.open_start(Some(format!("{why} {e}")))
                    }
                }
            }
            StartAction::Resume(id) => match Session::resume(start.store, id) {
                Ok(session) => self.table(session),
                Err(e) => {
                    let why = self.lang.t().could_not_resume;
                    self.open_start(Some(format!("#{id}: {why} {e}")))
                }
            },
        };
    }

    /// The error screen for a store that cannot be opened. Returns true on "Try again".
    fn store_error(
        &self,
        ui: &mut Ui,
        message: &str,
        read_only: bool,
        lang: Lang,
    ) -> Option<StoreErrorChoice> {
        let t = lang.t();
        let mut choice = None;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.add_space(30.0);
            ui.label(RichText::new(t.store_error).size(36.0).strong().color(WARN));
            ui.add_space(10.0);
            ui.label(RichText::new(message).size(20.0));
            ui.add_space(10.0);
            ui.label(
                RichText::new(lang.store_file(&self.db_path.display().to_string())).size(18.0),
            );
            ui.add_space(16.0);
            ui.horizontal(|ui| {
                if wide_button(ui, t.try_again, 220.0, true).clicked() {
                    choice = Some(StoreErrorChoice::Retry);
                }
                if read_only
                    && wide_button(ui, read_only_history_label(lang), 260.0, true).clicked()
                {
                    choice = Some(StoreErrorChoice::History);
                }
                if self.kiosk && wide_button(ui, t.quit, 160.0, true).clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
        });
        choice
    }
}

/// What the store error screen's buttons ask for.
enum StoreErrorChoice {
    /// Open the store again.
    Retry,
    /// Read the history read-only (the media is read-only).
    History,
}

/// A store error as the error screen shows it: in Japanese and in English where the error is
/// one a player meets at the table (the read-only SD card: "the SD card is read-only: matches
/// cannot be saved"), else as the store says it.
fn store_error_text(e: &crate::store::StoreError) -> String {
    match e.ja() {
        Some(ja) => format!("{ja}\n\n{e}"),
        None => e.to_string(),
    }
}

/// The button that opens the history of a read-only card.
fn read_only_history_label(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "History (read-only)",
        Lang::Ja => "履歴（読み取り専用）",
    }
}

impl eframe::App for TablesideApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
        if !self.first_frame_done {
            self.first_frame_done = true;
            if std::env::var_os(FIRST_FRAME_ENV).is_some() {
                let ms = PROCESS_START
                    .get()
                    .map_or(0.0, |t| t.elapsed().as_secs_f64() * 1000.0);
                println!("first frame after {ms:.1} ms");
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }
}

/// The config file's problem, above every screen: the file, the line, what is wrong and what
/// to write instead, and that the defaults are in effect. Returns true on "OK".
fn config_banner(ui: &mut Ui, problem: &crate::config::ConfigError, lang: Lang) -> bool {
    let mut dismissed = false;
    egui::Panel::top("config-problem").show(ui, |ui| {
        ui.add_space(4.0);
        let where_ = match (lang, problem.line) {
            (Lang::En, 0) => format!("The config file {} cannot be used:", problem.file),
            (Lang::En, n) => format!("The config file {}, line {n}:", problem.file),
            (Lang::Ja, 0) => format!("設定ファイル {} を使えません:", problem.file),
            (Lang::Ja, n) => format!("設定ファイル {} の {n} 行目:", problem.file),
        };
        ui.label(RichText::new(where_).size(18.0).strong().color(WARN));
        ui.add(egui::Label::new(RichText::new(&problem.message).size(17.0)).wrap());
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(lang.pick(
                    "The defaults are in effect until the file is fixed (`tableside config check` says the same).",
                    "ファイルを直すまで既定の設定で動きます(`tableside config check` でも確認できます)。",
                ))
                .size(15.0)
                .weak(),
            );
            dismissed = wide_button(ui, lang.t().ok, 120.0, true).clicked();
        });
        ui.add_space(4.0);
    });
    dismissed
}

/// Larger text and touch-sized controls: the window is read from beside the table.
fn apply_style(ctx: &egui::Context) {
    use egui::{FontFamily, FontId, TextStyle};
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (
                TextStyle::Heading,
                FontId::new(30.0, FontFamily::Proportional),
            ),
            (TextStyle::Body, FontId::new(18.0, FontFamily::Proportional)),
            (
                TextStyle::Monospace,
                FontId::new(16.0, FontFamily::Monospace),
            ),
            (
                TextStyle::Button,
                FontId::new(19.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Small,
                FontId::new(14.0, FontFamily::Proportional),
            ),
        ]
        .into();
        style.spacing.button_padding = egui::vec2(12.0, 7.0);
        style.spacing.item_spacing = egui::vec2(10.0, 8.0);
        style.spacing.interact_size.y = 34.0;
    });
}
