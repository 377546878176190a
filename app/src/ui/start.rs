//! The start screen: resume an unfinished match, or set up a new one (game, players, decks,
//! house rules), with the devices (dice tower, camera), the language and the history.

use super::deck_editor::{DeckEditor, EditorAction};
use super::dice_panel::tower_line;
use super::games::{self, Start};
use super::i18n::Lang;
use super::keyboard::{Keyboard, keys};
use super::widgets::{ACCENT, WARN, key_button, section, touch_height, wide_key_button};
use crate::dice::DiceService;
use crate::session::{load_match, now_ms};
use crate::store::library::SetEntry;
use crate::store::{MatchId, MatchRecord, RegisterError, Store};
use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::decks::Deck;
use cards::game::{MatchHeader, PlayerConfig};
use cards::games::jaken::{Rules, Settlement};
use egui::{Button, Frame, Key, RichText, ScrollArea, Stroke, TextEdit, Ui, Vec2};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Where a player's deck comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DeckChoice {
    /// A ready-made deck of the chosen set, by id (for Space Junk: the player's character).
    ReadyMade(String),
    /// A deck registered in the store (`tableside deck register`), by owner and name.
    Registered {
        /// The owner.
        owner: String,
        /// The deck's name.
        name: String,
    },
}

/// Most players of any game (Space Junk has six ship boards).
pub(crate) const MAX_PLAYERS: usize = 6;

/// What the players fill in for a new match. Kept while the app runs, so "New match" starts
/// from the last game, names and decks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StartForm {
    /// The game to start.
    pub game: GameId,
    /// How many play (2, except Space Junk: 2–6).
    pub count: usize,
    /// Player names by seat (always [`MAX_PLAYERS`] of them; the first `count` play).
    pub names: Vec<String>,
    /// Jaken decks by seat.
    pub decks: [DeckChoice; 2],
    /// Decks of the other games by seat: a ready-made list of the chosen set or a registered
    /// deck of it, or for Space Junk the player's character card. Reset when the game or the
    /// set changes.
    pub picks: Vec<DeckChoice>,
    /// The set of the card library chosen per game (a game not in here plays its demo set).
    pub sets: BTreeMap<GameId, String>,
    /// Jaken house rules.
    pub rules: Rules,
    /// The optional rules switched on (keys of the game's [`Start::ReadyMade`] switches).
    pub switches: std::collections::BTreeSet<&'static str>,
    /// A JUNK-KEN draft dealt by the app: the copies of each card of the set in the pool.
    pub draft_copies: u8,
    /// The draft's shuffle (a new one for each start screen).
    pub draft_seed: u64,
    /// The seat whose name the on-screen keyboard types, while it is open.
    pub keyboard_for: Option<usize>,
    /// The on-screen keyboard of the names.
    pub keyboard: Keyboard,
}

/// The players' seats that can be chosen for a game.
pub(crate) fn player_range(game: GameId) -> (usize, usize) {
    let players = &game.descriptor().players;
    (*players.start(), *players.end())
}

/// What a player of a game other than Jaken can pick: (id, text) of the demo catalogue's
/// ready-made decks, or for Space Junk its character cards.
pub(crate) fn options_of(catalogue: &Catalogue, lang: Lang) -> Vec<(String, String)> {
    if games::of(catalogue.game).start == Start::Characters {
        catalogue
            .cards
            .iter()
            .filter(|c| c.space_junk().and_then(|s| s.character()).is_some())
            .map(|c| {
                let name = c.name(lang.code());
                (c.id.clone(), format!("{} — {name}", c.id))
            })
            .collect()
    } else {
        catalogue
            .decks
            .iter()
            .map(|d| (d.id.clone(), deck_text(d, lang)))
            .collect()
    }
}

/// A ready-made deck's button text: "lantern — Lanterns of the Night (…)" in English; in
/// Japanese the catalogue's Japanese name alone (the id is the files' word for it).
fn deck_text(deck: &cards::catalogue::DeckList, lang: Lang) -> String {
    match lang {
        Lang::Ja if !deck.name_ja.is_empty() => deck.name_ja.clone(),
        _ => format!("{} — {}", deck.id, deck.name),
    }
}

impl StartForm {
    pub(crate) fn new(catalogue: Option<&Catalogue>) -> Self {
        let deck = |id: &str, i: usize| {
            let id = catalogue
                .and_then(|c| c.deck(id).or_else(|| c.decks.get(i)))
                .map_or_else(|| id.to_owned(), |d| d.id.clone());
            DeckChoice::ReadyMade(id)
        };
        StartForm {
            game: GameId::Jaken,
            count: 2,
            names: (1..=MAX_PLAYERS).map(|n| format!("Player {n}")).collect(),
            decks: [deck("lantern", 0), deck("gale", 1)],
            picks: Vec::new(),
            sets: BTreeMap::new(),
            rules: Rules::default(),
            keyboard_for: None,
            keyboard: Keyboard::default(),
            switches: std::collections::BTreeSet::new(),
            draft_copies: 6,
            draft_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
        }
    }

    /// True when the players draft their JUNK-KEN decks with the app (the start screen's switch).
    fn drafting(&self) -> bool {
        let key = games::junk_ken::DRAFT_SWITCH;
        self.switches.contains(key)
            && games::of(self.game)
                .start
                .switches()
                .iter()
                .any(|(k, _, _)| *k == key)
    }

    /// Switches the game (or its set): the player count into its range, each seat a different
    /// ready-made deck of the set.
    pub(crate) fn set_game(&mut self, game: GameId, catalogue: Option<&Catalogue>, lang: Lang) {
        self.game = game;
        let (min, max) = player_range(game);
        self.count = self.count.clamp(min, max);
        self.picks = match catalogue {
            Some(c) if games::of(game).start != Start::JakenForm => {
                let options = options_of(c, lang);
                (0..MAX_PLAYERS)
                    .filter_map(|i| {
                        options
                            .get(i % options.len().max(1))
                            .map(|(id, _)| DeckChoice::ReadyMade(id.clone()))
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        if let Some(c) = catalogue.filter(|_| games::of(game).start == Start::JakenForm) {
            let deck = |i: usize| {
                DeckChoice::ReadyMade(c.decks.get(i).map_or_else(String::new, |d| d.id.clone()))
            };
            self.decks = [deck(0), deck(1)];
        }
    }

    /// A club night pairing's game (played with `catalogue`, the set chosen for it) and its
    /// players' names, seat by seat.
    pub(crate) fn take_pairing(
        &mut self,
        game: GameId,
        catalogue: Option<&Catalogue>,
        names: &[String],
        lang: Lang,
    ) {
        self.set_game(game, catalogue, lang);
        let (min, max) = player_range(game);
        self.count = names.len().clamp(min, max);
        for (slot, name) in self.names.iter_mut().zip(names) {
            slot.clone_from(name);
        }
    }

    /// The names of the players who play, trimmed; or a sentence saying what is wrong.
    fn checked_names(&self, lang: Lang) -> Result<Vec<&str>, String> {
        let names: Vec<&str> = self
            .names
            .iter()
            .take(self.count)
            .map(|n| n.trim())
            .collect();
        if names.len() < self.count || names.iter().any(|n| n.is_empty()) {
            return Err(lang.t().need_names.to_owned());
        }
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(lang.t().need_different_names.to_owned());
            }
        }
        Ok(names)
    }

    /// The match header of a game other than Jaken, built as `Script::header` builds it for
    /// the example scripts: a ready-made list per player, or for Space Junk the player's
    /// character alone (the shared junk deck is then every junk card of the set); the rules
    /// are the digest's defaults (`null`).
    pub(crate) fn other_header(
        &self,
        catalogue: &Catalogue,
        registered: &[Deck],
        lang: Lang,
    ) -> Result<MatchHeader, String> {
        let names = self.checked_names(lang)?;
        if self.drafting() {
            // The players bring no decks: they pick piles and build them in the match.
            return Ok(MatchHeader {
                game: catalogue.game,
                catalogue: catalogue.set.id.clone(),
                players: names
                    .iter()
                    .map(|name| PlayerConfig {
                        name: (*name).to_owned(),
                        deck_name: "(built in the draft)".to_owned(),
                        deck: Vec::new(),
                    })
                    .collect(),
                rules: games::junk_ken::draft_rules(self.draft_copies, self.draft_seed),
            });
        }
        let mut players = Vec::new();
        for (seat, name) in names.iter().enumerate() {
            let choice = self
                .picks
                .get(seat)
                .ok_or_else(|| format!("{name}: no deck chosen"))?;
            let id = match choice {
                DeckChoice::ReadyMade(id) => id,
                DeckChoice::Registered { owner, name: deck } => {
                    let (deck_name, deck) =
                        registered_deck(name, catalogue, registered, owner, deck)?;
                    players.push(PlayerConfig {
                        name: (*name).to_owned(),
                        deck_name,
                        deck,
                    });
                    continue;
                }
            };
            let (deck_name, deck) = if games::of(catalogue.game).start == Start::Characters {
                catalogue
                    .card(id)
                    .filter(|c| c.space_junk().and_then(|s| s.character()).is_some())
                    .ok_or_else(|| {
                        format!("{name}: no character `{id}` in {}", catalogue.set.id)
                    })?;
                (format!("{}/{id}", catalogue.set.id), vec![id.clone()])
            } else {
                let list = catalogue
                    .deck(id)
                    .ok_or_else(|| format!("{name}: no deck `{id}` in {}", catalogue.set.id))?;
                (
                    format!("{}/{}", catalogue.set.id, list.id),
                    list.cards.clone(),
                )
            };
            players.push(PlayerConfig {
                name: (*name).to_owned(),
                deck_name,
                deck,
            });
        }
        // The digest's defaults (`null`), or the optional rules switched on.
        let switches = games::of(catalogue.game).start.switches();
        let rules = if !switches.is_empty() && !self.switches.is_empty() {
            serde_json::Value::Object(
                self.switches
                    .iter()
                    .filter(|k| switches.iter().any(|(own, _, _)| own == *k))
                    .map(|k| ((*k).to_owned(), serde_json::Value::Bool(true)))
                    .collect(),
            )
        } else {
            serde_json::Value::Null
        };
        Ok(MatchHeader {
            game: catalogue.game,
            catalogue: catalogue.set.id.clone(),
            players,
            rules,
        })
    }

    /// The match header, or a sentence saying what is missing.
    pub(crate) fn header(
        &self,
        catalogue: &Catalogue,
        registered: &[Deck],
        lang: Lang,
    ) -> Result<MatchHeader, String> {
        let names = self.checked_names(lang)?;
        let mut players = Vec::new();
        for (name, choice) in names.iter().zip(&self.decks) {
            let (deck_name, deck) = match choice {
                DeckChoice::ReadyMade(id) => {
                    let list = catalogue
                        .deck(id)
                        .ok_or_else(|| format!("{name}: no deck `{id}` in {}", catalogue.set.id))?;
                    (
                        format!("{}/{}", catalogue.set.id, list.id),
                        list.cards.clone(),
                    )
                }
                DeckChoice::Registered { owner, name: deck } => {
                    registered_deck(name, catalogue, registered, owner, deck)?
                }
            };
            players.push(PlayerConfig {
                name: (*name).to_owned(),
                deck_name,
                deck,
            });
        }
        Ok(MatchHeader {
            game: GameId::Jaken,
            catalogue: catalogue.set.id.clone(),
            players,
            rules: serde_json::to_value(&self.rules).map_err(|e| e.to_string())?,
        })
    }
}

/// A registered deck of the chosen set as a player's deck: its name and every copy's card id.
fn registered_deck(
    player: &str,
    catalogue: &Catalogue,
    registered: &[Deck],
    owner: &str,
    deck: &str,
) -> Result<(String, Vec<String>), String> {
    let d = registered
        .iter()
        .find(|d| d.game == catalogue.game && d.owner == owner && d.name == deck)
        .ok_or_else(|| format!("{player}: deck {owner}/{deck} is not registered"))?;
    if d.set != catalogue.set.id {
        return Err(format!(
            "{player}: deck {owner}/{deck} is of set {}, not of the chosen set {}",
            d.set, catalogue.set.id
        ));
    }
    Ok((
        format!("registered/{owner}/{deck}"),
        d.copies().map(|c| c.card.clone()).collect(),
    ))
}

/// The outcome stored for a match discarded at the start screen: it stays in the log and the
/// history, marked abandoned.
pub(crate) const ABANDONED: &str =
    r#"{"result":"abandoned","reason":"discarded at the start screen"}"#;

/// The outcome stored for a match left before its first entry, once a newer one exists.
const ABANDONED_EMPTY: &str = r#"{"result":"abandoned","reason":"left before the first entry"}"#;

/// One unfinished match offered for resuming.
#[derive(Clone, Debug, PartialEq)]
struct Resumable {
    id: MatchId,
    /// "Aki vs Ben".
    players: String,
    game: String,
    entries: u64,
    /// Where it stands ("battle 4/10 · SB Aki 12, Ben 8"), for the most recent one.
    standing: Option<String>,
}

/// The start screen with the open store.
pub(crate) struct StartScreen {
    /// The match store (moved into the session when a match starts).
    pub store: Store,
    resumable: Vec<Resumable>,
    /// The registered decks of the store, every game.
    registered: Vec<Deck>,
    /// The sets of the card library, every game (sorted by game and set id).
    sets: Vec<SetEntry>,
    /// The sets loaded so far, by set id (a set is loaded when it is first shown).
    loaded: BTreeMap<String, Result<Rc<Catalogue>, String>>,
    /// The deck editor, while it is open.
    editor: Option<DeckEditor>,
    /// Why the last start or resume failed, or why the list could not be read.
    pub message: Option<String>,
    /// Names of recent matches' players, most recent first (one tap fills a name).
    recent_names: Vec<String>,
    /// The new match as the form stands (drawn in the bar at the bottom, always in view):
    /// the header to start, or why it cannot start yet.
    start_bar: Option<Result<MatchHeader, String>>,
    /// The unfinished match whose "Discard" was tapped (asked again before it is done).
    discarding: Option<MatchId>,
}

/// What the players chose on the start screen.
pub(crate) enum StartAction {
    /// Start a new match with this header.
    Start(MatchHeader),
    /// Resume this stored match.
    Resume(MatchId),
    /// Mark this unfinished match as abandoned (it stays in the log and the history).
    Discard(MatchId),
    /// Open the history of stored matches.
    History,
    /// Switch the language.
    ToggleLang,
    /// Close the window (kiosk mode has no title bar).
    Quit,
}

fn players_of(record: &MatchRecord) -> Option<String> {
    let h = serde_json::from_str::<MatchHeader>(&record.header_json).ok()?;
    Some(
        h.players
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
            .join(" vs "),
    )
}

/// Where a stored match stands, by replaying it (only for the one offered first).
fn standing(store: &Store, id: MatchId) -> Option<String> {
    let game = load_match(store, id).ok()?;
    let ctx = game.context();
    let sb: Vec<String> = game
        .trackers()
        .into_iter()
        .filter(|t| t.id.name == "sb")
        .filter_map(|t| {
            let name = ctx.players.get(t.id.player?)?;
            Some(format!("{name} {}", t.value))
        })
        .collect();
    let mut text = ctx.phase.step.clone();
    if !sb.is_empty() {
        text.push_str(&format!(" · SB {}", sb.join(", ")));
    }
    Some(text)
}

impl StartScreen {
    /// Reads the unfinished matches and the registered decks of `store`.
    pub(crate) fn new(store: Store, message: Option<String>) -> Self {
        let mut screen = StartScreen {
            store,
            resumable: Vec::new(),
            registered: Vec::new(),
            sets: Vec::new(),
            loaded: BTreeMap::new(),
            editor: None,
            message,
            recent_names: Vec::new(),
            start_bar: None,
            discarding: None,
        };
        let mut problems = Vec::new();
        match screen.store.unfinished() {
            Ok(mut records) => {
                // The match being played is the one written last, not the one made last.
                records.sort_by(|a, b| {
                    b.updated_ms
                        .cmp(&a.updated_ms)
                        .then(b.entries.cmp(&a.entries))
                        .then(b.id.cmp(&a.id))
                });
                // Matches left before their first entry do not pile up: all but the latest are
                // marked abandoned (kept in the log, never deleted).
                let now = now_ms();
                let mut kept_empty = false;
                records.retain(|r| {
                    if r.entries > 0 || !kept_empty {
                        kept_empty |= r.entries == 0;
                        return true;
                    }
                    match screen.store.finish(r.id, ABANDONED_EMPTY, now) {
                        Ok(()) => false,
                        Err(e) => {
                            problems.push(format!("#{}: {e}", r.id));
                            true
                        }
                    }
                });
                screen.resumable = records
                    .iter()
                    .enumerate()
                    .map(|(i, r)| Resumable {
                        id: r.id,
                        players: players_of(r).unwrap_or_else(|| "?".to_owned()),
                        game: games::title(&r.game),
                        entries: r.entries,
                        standing: if i == 0 {
                            standing(&screen.store, r.id)
                        } else {
                            None
                        },
                    })
                    .collect();
            }
            Err(e) => problems.push(format!("The unfinished matches cannot be listed: {e}")),
        }
        if let Ok(all) = screen.store.matches() {
            let mut all = all;
            all.sort_by(|a, b| b.updated_ms.cmp(&a.updated_ms).then(b.id.cmp(&a.id)));
            for r in &all {
                if let Ok(h) = serde_json::from_str::<MatchHeader>(&r.header_json) {
                    for p in h.players {
                        if !screen.recent_names.contains(&p.name) && screen.recent_names.len() < 8 {
                            screen.recent_names.push(p.name);
                        }
                    }
                }
            }
        }
        match screen.store.registry() {
            Ok(registry) => screen.registered = registry.decks().cloned().collect(),
            Err(e) => problems.push(format!("The registered decks cannot be read: {e}")),
        }
        match screen.store.library() {
            Ok(sets) => screen.sets = sets,
            Err(e) => problems.push(format!("The card library cannot be read: {e}")),
        }
        if !problems.is_empty() {
            let text = problems.join("\n");
            screen.message = Some(match screen.message.take() {
                Some(m) => format!("{m}\n{text}"),
                None => text,
            });
        }
        screen
    }

    /// The unfinished match offered first: the one written last.
    pub(crate) fn latest(&self) -> Option<MatchId> {
        self.resumable.first().map(|r| r.id)
    }

    /// Draws the screen; returns what the players chose.
    pub(crate) fn show(
        &mut self,
        ui: &mut Ui,
        form: &mut StartForm,
        dice: &DiceService,
        lang: Lang,
        kiosk: bool,
    ) -> Option<StartAction> {
        let t = lang.t();
        let k = |key: &'static str| kiosk.then_some(key);
        let keys = kiosk && !ui.ctx().egui_wants_keyboard_input();
        let pressed = |ui: &Ui, key: Key| keys && ui.input(|i| i.key_pressed(key));
        let mut action = None;
        if self.editor.is_none() {
            let key = (kiosk && self.resumable.is_empty()).then_some("Space");
            action = self.start_bar(ui, lang, key);
        } else {
            self.start_bar = None;
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ScrollArea::vertical().id_salt("start").show(ui, |ui| {
                // Room for the scroll bar, which floats over the content.
                ui.set_max_width(ui.available_width() - 18.0);
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new("Tableside").size(40.0).strong());
                    ui.label(RichText::new(t.tagline).size(20.0).weak());
                });
                ui.horizontal_wrapped(|ui| {
                    if key_button(ui, t.other_language, k("L"), 0.0).clicked()
                        || pressed(ui, Key::L)
                    {
                        action = Some(StartAction::ToggleLang);
                    }
                    if key_button(ui, t.history, k("H"), 0.0).clicked() || pressed(ui, Key::H) {
                        action = Some(StartAction::History);
                    }
                    if kiosk && key_button(ui, t.quit, None, 0.0).clicked() {
                        action = Some(StartAction::Quit);
                    }
                });
                ui.label(
                    RichText::new(lang.match_log(&self.store.path().display().to_string()))
                        .size(14.0)
                        .weak(),
                );
                if let Some(message) = &self.message {
                    ui.add_space(6.0);
                    Frame::new()
                        .stroke(Stroke::new(2.0, WARN))
                        .corner_radius(6.0)
                        .inner_margin(10.0)
                        .show(ui, |ui| {
                            ui.set_width(ui.available_width());
                            ui.label(RichText::new(message).size(18.0).color(WARN));
                        });
                }
                ui.add_space(10.0);
                if let Some(p) = super::club::panel(ui, lang) {
                    self.take_pairing(form, &p, lang);
                }
                let resuming = !self.resumable.is_empty();
                if let Some(a) = self.resume_section(
                    ui,
                    lang,
                    kiosk,
                    pressed(ui, Key::Enter) || pressed(ui, Key::Space),
                ) {
                    action = Some(a);
                }
                ui.add_space(10.0);
                let start_keys = !resuming && (pressed(ui, Key::Enter) || pressed(ui, Key::Space));
                if self.editor.is_some() {
                    self.editor_section(ui, lang);
                } else if let Some(a) = self.new_match_section(
                    ui,
                    form,
                    lang,
                    (kiosk && !resuming).then_some("Space"),
                    start_keys,
                ) {
                    action = Some(a);
                }
                ui.add_space(10.0);
                devices_section(ui, dice, lang);
            });
        });
        action
    }

    fn resume_section(
        &mut self,
        ui: &mut Ui,
        lang: Lang,
        kiosk: bool,
        key: bool,
    ) -> Option<StartAction> {
        let t = lang.t();
        let (first, rest) = self.resumable.split_first()?;
        let mut action = None;
        let mut discarding = self.discarding;
        Frame::new()
            .stroke(Stroke::new(3.0, ACCENT))
            .corner_radius(8.0)
            .inner_margin(14.0)
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(
                    RichText::new(t.unfinished_waiting)
                        .size(26.0)
                        .strong()
                        .color(ACCENT),
                );
                ui.label(RichText::new(lang.match_title(first.id, &first.players)).size(24.0));
                ui.label(
                    RichText::new(format!("{} · {}", first.game, lang.entries(first.entries)))
                        .size(17.0),
                );
                if let Some(standing) = &first.standing {
                    ui.label(RichText::new(standing).size(17.0));
                }
                ui.add_space(6.0);
                let resume = lang.resume_match(first.id);
                let k = kiosk.then_some("Space");
                ui.horizontal_wrapped(|ui| {
                    if wide_key_button(ui, &resume, k, 320.0, true).clicked() || key {
                        action = Some(StartAction::Resume(first.id));
                    }
                    if let Some(a) = discard_control(ui, &mut discarding, first.id, lang) {
                        action = Some(a);
                    }
                });
                if !rest.is_empty() {
                    ui.add_space(8.0);
                    ui.label(RichText::new(t.other_unfinished).size(17.0).weak());
                    for r in rest {
                        ui.horizontal_wrapped(|ui| {
                            let text = lang.resume_match(r.id);
                            let height = touch_height(ui, 40.0);
                            let resume = ui.add(
                                Button::new(RichText::new(text).size(18.0))
                                    .min_size(Vec2::new(200.0, height)),
                            );
                            if resume.clicked() {
                                action = Some(StartAction::Resume(r.id));
                            }
                            if let Some(a) = discard_control(ui, &mut discarding, r.id, lang) {
                                action = Some(a);
                            }
                            ui.label(
                                RichText::new(format!(
                                    "{} · {} · {}",
                                    r.players,
                                    r.game,
                                    lang.entries(r.entries)
                                ))
                                .size(17.0),
                            );
                        });
                    }
                }
            });
        self.discarding = discarding;
        action
    }

    /// Fills the form with a club night pairing tapped in the club panel: its game (with the
    /// set chosen for that game) and its players' names.
    fn take_pairing(&mut self, form: &mut StartForm, p: &club_protocol::Pairing, lang: Lang) {
        let Some(game) = GameId::parse(&p.game) else {
            return;
        };
        form.game = game;
        let cat = self.chosen_catalogue(form).ok();
        form.take_pairing(game, cat.as_deref(), &p.players, lang);
    }

    /// The set chosen for `game`: the form's choice if it is still in the library, else the
    /// game's built-in demo set, else its first set.
    fn set_of(&self, form: &StartForm, game: GameId) -> Option<String> {
        let of_game = || self.sets.iter().filter(|s| s.game == game);
        form.sets
            .get(&game)
            .filter(|id| of_game().any(|s| &s.set_id == *id))
            .cloned()
            .or_else(|| of_game().find(|s| s.builtin).map(|s| s.set_id.clone()))
            .or_else(|| of_game().next().map(|s| s.set_id.clone()))
    }

    /// The catalogue of a set, loaded from the library the first time it is asked for.
    fn catalogue_of(&mut self, set_id: &str) -> Result<Rc<Catalogue>, String> {
        let store = &self.store;
        self.loaded
            .entry(set_id.to_owned())
            .or_insert_with(|| {
                store
                    .catalogue(set_id)
                    .map(|(c, _)| Rc::new(c))
                    .map_err(|e| lang_neutral(&e))
            })
            .clone()
    }

    /// The chosen set of the form's game, loaded.
    fn chosen_catalogue(&mut self, form: &StartForm) -> Result<Rc<Catalogue>, String> {
        match self.set_of(form, form.game) {
            Some(id) => self.catalogue_of(&id),
            None => Err(format!("the card library has no {} set", form.game)),
        }
    }

    /// The set choice of the form's game: one button per set of the library.
    fn set_row(&mut self, ui: &mut Ui, form: &mut StartForm, lang: Lang) {
        let chosen = self.set_of(form, form.game);
        let height = touch_height(ui, 40.0);
        let mut picked = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(lang.pick("Cards", "カード")).size(18.0));
            for set in self.sets.iter().filter(|s| s.game == form.game) {
                let selected = chosen.as_deref() == Some(set.set_id.as_str());
                let name = lang.pick(&set.name_en, &set.name_ja);
                let mark = if set.builtin {
                    lang.pick(" · demo", " · デモ")
                } else {
                    ""
                };
                let text = lang.pick(
                    format!("{name} ({} cards{mark})", set.cards),
                    format!("{name}({}枚{mark})", set.cards),
                );
                let button = ui
                    .add(
                        Button::selectable(selected, RichText::new(text).size(17.0))
                            .min_size(Vec2::new(140.0, height)),
                    )
                    .accessible_name(format!("{}: {}", lang.pick("Set", "セット"), set.set_id));
                if button.clicked() && !selected {
                    picked = Some(set.set_id.clone());
                }
            }
        });
        if let Some(id) = picked {
            form.sets.insert(form.game, id.clone());
            let cat = self.catalogue_of(&id).ok();
            form.set_game(form.game, cat.as_deref(), lang);
        }
    }

    /// "Build a deck" for the chosen set.
    fn editor_button(
        &self,
        ui: &mut Ui,
        catalogue: &Rc<Catalogue>,
        form: &StartForm,
        lang: Lang,
    ) -> Option<DeckEditor> {
        let height = touch_height(ui, 48.0);
        let open = ui
            .add(
                Button::new(RichText::new(lang.pick("Build a deck…", "デッキを組む…")).size(18.0))
                    .min_size(Vec2::new(200.0, height)),
            )
            .accessible_name(lang.pick("Build a deck", "デッキを組む"));
        open.clicked().then(|| {
            let owner = form.names.first().map_or("", |n| n.trim());
            DeckEditor::new(catalogue.as_ref().clone(), owner)
        })
    }

    /// The deck editor in place of the new match's setup; saving registers the deck.
    fn editor_section(&mut self, ui: &mut Ui, lang: Lang) {
        let Some(editor) = &mut self.editor else {
            return;
        };
        match editor.show(ui, lang) {
            Some(EditorAction::Close) => self.editor = None,
            Some(EditorAction::Save(deck)) => match self.store.register_deck(&deck, now_ms()) {
                Ok(()) => {
                    editor.message = Some((
                        false,
                        lang.pick(
                            format!("Registered: {}'s deck “{}”.", deck.owner, deck.name),
                            format!("{}のデッキ「{}」を登録しました。", deck.owner, deck.name),
                        ),
                    ));
                    self.registered.push(deck);
                    self.registered.sort_by(|a, b| {
                        (a.game, &a.owner, &a.name).cmp(&(b.game, &b.owner, &b.name))
                    });
                }
                Err(RegisterError::Refused(e)) => {
                    editor.message = Some((
                        true,
                        lang.pick(
                            format!("Not registered: {e}"),
                            format!("登録できません: {}", e.ja()),
                        ),
                    ));
                }
                Err(RegisterError::Store(e)) => editor.message = Some((true, e.to_string())),
            },
            Some(EditorAction::Export(deck)) => {
                editor.message = Some(match export_deck(&self.store, &deck) {
                    Ok(path) => (false, lang.written(&path.display().to_string())),
                    Err(e) => (true, e),
                });
            }
            None => {}
        }
    }

    fn new_match_section(
        &mut self,
        ui: &mut Ui,
        form: &mut StartForm,
        lang: Lang,
        start_key: Option<&str>,
        start_pressed: bool,
    ) -> Option<StartAction> {
        let t = lang.t();
        let mut action = None;
        ui.label(RichText::new(t.new_match).size(28.0).strong());
        let height = touch_height(ui, 40.0);
        let mut chosen = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(t.game).size(18.0));
            for game in GameId::ALL {
                let title = games::title(game.as_str());
                let selected = form.game == game;
                let button = ui.add(
                    Button::selectable(selected, RichText::new(title).size(19.0))
                        .min_size(Vec2::new(140.0, height)),
                );
                if button.clicked() && !selected {
                    chosen = Some(game);
                }
            }
        });
        if let Some(game) = chosen {
            form.game = game;
            let cat = self.chosen_catalogue(form).ok();
            form.set_game(game, cat.as_deref(), lang);
        }
        self.set_row(ui, form, lang);
        let catalogue = match self.chosen_catalogue(form) {
            Ok(c) => c,
            Err(e) => {
                ui.label(
                    RichText::new(format!("{} {e}", t.catalogue_broken))
                        .size(18.0)
                        .color(WARN),
                );
                return None;
            }
        };
        if let Some(editor) = self.editor_button(ui, &catalogue, form, lang) {
            self.editor = Some(editor);
        }
        if games::of(form.game).start != Start::JakenForm {
            return self.other_game_section(ui, form, &catalogue, lang, start_key, start_pressed);
        }
        let catalogue = catalogue.as_ref();
        let registered: Vec<&Deck> = self
            .registered
            .iter()
            .filter(|d| d.game == catalogue.game && d.set == catalogue.set.id)
            .collect();
        ui.horizontal(|ui| {
            ui.label(RichText::new(t.players).size(18.0));
            ui.label(RichText::new(t.two_players).size(18.0).strong());
        });
        if catalogue.set.demo {
            let set_name = catalogue.set.name_in(lang.code());
            let note = catalogue.set.note_in(lang.code());
            ui.label(
                RichText::new(format!("{}: {set_name} — {note}", t.cards))
                    .size(14.0)
                    .weak(),
            );
        }
        ui.add_space(6.0);
        ui.columns(2, |cols| {
            for (seat, ui) in cols.iter_mut().enumerate() {
                section(ui, &lang.player_n(seat + 1), |ui| {
                    name_entry(ui, form, seat, &self.recent_names, lang);
                    ui.add_space(4.0);
                    ui.label(RichText::new(t.demo_decks).size(16.0).weak());
                    for deck in &catalogue.decks {
                        let choice = DeckChoice::ReadyMade(deck.id.clone());
                        let text = deck_text(deck, lang);
                        deck_button(
                            ui,
                            form,
                            seat,
                            choice,
                            &text,
                            &lang.player_deck(seat + 1, &deck.id),
                        );
                    }
                    ui.label(RichText::new(t.registered_decks).size(16.0).weak());
                    if registered.is_empty() {
                        ui.add(
                            egui::Label::new(
                                RichText::new(t.no_registered_decks).size(14.0).weak(),
                            )
                            .wrap(),
                        );
                    }
                    for deck in &registered {
                        let id = format!("{}/{}", deck.owner, deck.name);
                        let choice = DeckChoice::Registered {
                            owner: deck.owner.clone(),
                            name: deck.name.clone(),
                        };
                        let text = format!("{id} ({})", deck.main.len());
                        deck_button(
                            ui,
                            form,
                            seat,
                            choice,
                            &text,
                            &lang.player_deck(seat + 1, &id),
                        );
                    }
                });
            }
        });
        names_keyboard(ui, form, lang);
        ui.add_space(6.0);
        section(ui, t.house_rules, |ui| {
            let rules = &mut form.rules;
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(t.settle).size(17.0));
                ui.radio_value(
                    &mut rules.settlement,
                    Settlement::Net,
                    RichText::new(t.settle_net).size(17.0),
                );
                ui.radio_value(
                    &mut rules.settlement,
                    Settlement::ParentFirst,
                    RichText::new(t.settle_parent_first).size(17.0),
                );
            });
            ui.columns(2, |cols| {
                cols[0].checkbox(
                    &mut rules.draw_in_battle_1,
                    RichText::new(t.draw_in_battle_1).size(17.0),
                );
                cols[0].checkbox(
                    &mut rules.clamp_negative,
                    RichText::new(t.clamp_negative).size(17.0),
                );
                cols[1].checkbox(
                    &mut rules.bg_multiple_uses_per_battle,
                    RichText::new(t.bg_multiple).size(17.0),
                );
                cols[1].checkbox(
                    &mut rules.bg_stays_until_exhausted,
                    RichText::new(t.bg_stays).size(17.0),
                );
            });
        });
        let header = form.header(catalogue, &self.registered, lang);
        if start_pressed && let Ok(h) = &header {
            action = Some(StartAction::Start(h.clone()));
        }
        let _ = start_key;
        self.set_start_bar(ui, header);
        action
    }

    /// Keeps the new match as the form stands for the bar at the bottom (a change is drawn at
    /// once).
    fn set_start_bar(&mut self, ui: &Ui, header: Result<MatchHeader, String>) {
        let header = Some(header);
        if self.start_bar != header {
            self.start_bar = header;
            ui.ctx().request_repaint();
        }
    }

    /// The bar at the bottom of the start screen: "Start", always in view, with what is
    /// missing when the match cannot start yet.
    fn start_bar(&self, ui: &mut Ui, lang: Lang, start_key: Option<&str>) -> Option<StartAction> {
        let header = self.start_bar.as_ref()?;
        let mut action = None;
        egui::Panel::bottom("start-bar").show(ui, |ui| {
            ui.add_space(4.0);
            ui.horizontal_wrapped(|ui| {
                let t = lang.t();
                if wide_key_button(ui, t.start, start_key, 240.0, header.is_ok()).clicked()
                    && let Ok(h) = header
                {
                    action = Some(StartAction::Start(h.clone()));
                }
                if let Err(why) = header {
                    ui.label(RichText::new(why).size(18.0).color(WARN));
                }
            });
            ui.add_space(4.0);
        });
        action
    }
}

impl StartScreen {
    /// The setup of a game other than Jaken: the player count, a deck (or a character) per
    /// player from the game's demo catalogue, and the note on house rules.
    fn other_game_section(
        &mut self,
        ui: &mut Ui,
        form: &mut StartForm,
        catalogue: &Catalogue,
        lang: Lang,
        start_key: Option<&str>,
        start_pressed: bool,
    ) -> Option<StartAction> {
        let t = lang.t();
        if form.picks.len() < MAX_PLAYERS {
            form.set_game(form.game, Some(catalogue), lang);
        }
        let (min, max) = player_range(form.game);
        let height = touch_height(ui, 40.0);
        ui.horizontal(|ui| {
            ui.label(RichText::new(t.players).size(18.0));
            if min == max {
                ui.label(RichText::new(t.two_players).size(18.0).strong());
                return;
            }
            let fewer = ui
                .add_enabled(
                    form.count > min,
                    Button::new(RichText::new("−").size(22.0)).min_size(Vec2::new(48.0, height)),
                )
                .accessible_name(lang.pick("Fewer players", "人数を減らす"));
            if fewer.clicked() {
                form.count -= 1;
            }
            let count = lang.pick(
                format!("{} players", form.count),
                format!("{}人", form.count),
            );
            ui.add(egui::Label::new(RichText::new(&count).size(20.0).strong()))
                .accessible_name(count);
            let more = ui
                .add_enabled(
                    form.count < max,
                    Button::new(RichText::new("+").size(22.0)).min_size(Vec2::new(48.0, height)),
                )
                .accessible_name(lang.pick("More players", "人数を増やす"));
            if more.clicked() {
                form.count += 1;
            }
        });
        let set_name = catalogue.set.name_in(lang.code());
        let note = catalogue.set.note_in(lang.code());
        ui.label(
            RichText::new(format!("{}: {set_name} — {note}", t.cards))
                .size(14.0)
                .weak(),
        );
        ui.add_space(6.0);
        let mut options: Vec<(DeckChoice, String, String)> = options_of(catalogue, lang)
            .into_iter()
            .map(|(id, text)| (DeckChoice::ReadyMade(id.clone()), text, id))
            .collect();
        // A Space Junk player brings a character; the table's junk deck is the set's.
        if games::of(form.game).start != Start::Characters {
            for d in self
                .registered
                .iter()
                .filter(|d| d.game == catalogue.game && d.set == catalogue.set.id)
            {
                let id = format!("{}/{}", d.owner, d.name);
                options.push((
                    DeckChoice::Registered {
                        owner: d.owner.clone(),
                        name: d.name.clone(),
                    },
                    format!("{id} ({}) · {}", d.copies().count(), t.registered_decks),
                    id,
                ));
            }
        }
        let heading = if games::of(form.game).start == Start::Characters {
            lang.pick(
                "Character (the shared junk deck is every junk card of the set)",
                "キャラクター(共有のジャンク山札はセットの全ジャンクカード)",
            )
        } else {
            t.demo_decks
        };
        let count = form.count;
        ui.columns(count, |cols| {
            for (seat, ui) in cols.iter_mut().enumerate() {
                section(ui, &lang.player_n(seat + 1), |ui| {
                    name_entry(ui, form, seat, &self.recent_names, lang);
                    ui.add_space(4.0);
                    ui.add(egui::Label::new(RichText::new(heading).size(16.0).weak()).wrap());
                    for (choice, text, id) in &options {
                        let chosen = form.picks.get(seat) == Some(choice);
                        let height = touch_height(ui, 36.0);
                        let button = ui
                            .add(
                                Button::selectable(chosen, RichText::new(text).size(17.0))
                                    .wrap()
                                    .min_size(Vec2::new(ui.available_width(), height)),
                            )
                            .accessible_name(lang.player_deck(seat + 1, id));
                        if button.clicked()
                            && let Some(pick) = form.picks.get_mut(seat)
                        {
                            *pick = choice.clone();
                        }
                    }
                });
            }
        });
        names_keyboard(ui, form, lang);
        ui.add_space(6.0);
        section(ui, t.house_rules, |ui| {
            let switches = games::of(form.game).start.switches();
            if !switches.is_empty() {
                for &(key, en, ja) in switches {
                    let mut on = form.switches.contains(key);
                    if ui
                        .checkbox(&mut on, RichText::new(lang.pick(en, ja)).size(18.0))
                        .accessible_name(en)
                        .changed()
                    {
                        if on {
                            form.switches.insert(key);
                        } else {
                            form.switches.remove(key);
                        }
                    }
                }
            }
            if form.drafting() {
                draft_copies_row(ui, form, catalogue, lang);
            }
            ui.add(
                egui::Label::new(
                    RichText::new(lang.pick(
                        "house rules: the digest defaults; set them in the config file",
                        "ハウスルール: ルール要約の既定値(設定ファイルで変更できます)",
                    ))
                    .size(17.0),
                )
                .wrap(),
            );
        });
        let header = form.other_header(catalogue, &self.registered, lang);
        let mut action = None;
        if start_pressed && let Ok(h) = &header {
            action = Some(StartAction::Start(h.clone()));
        }
        let _ = start_key;
        self.set_start_bar(ui, header);
        action
    }
}

/// The draft's pool: copies of each card of the set (−/+), and the piles they deal.
fn draft_copies_row(ui: &mut Ui, form: &mut StartForm, catalogue: &Catalogue, lang: Lang) {
    let height = touch_height(ui, 40.0);
    let cards = catalogue
        .cards
        .iter()
        .filter(|c| c.junk_ken().is_some())
        .count();
    let ex = catalogue
        .cards
        .iter()
        .filter(|c| c.junk_ken().is_some_and(|j| j.is_extra()))
        .count();
    let n = usize::from(form.draft_copies);
    let piles = cards::games::junk_ken::draft_piles((cards - ex) * n, ex * n).len();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(lang.pick("Copies of each card", "各カードの枚数")).size(18.0));
        let fewer = ui
            .add_enabled(
                form.draft_copies > 1,
                Button::new(RichText::new("−").size(22.0)).min_size(Vec2::new(48.0, height)),
            )
            .accessible_name(lang.pick("Fewer copies", "枚数を減らす"));
        if fewer.clicked() {
            form.draft_copies -= 1;
        }
        let text = lang.pick(
            format!("{n} ({} cards, {piles} piles)", (cards) * n),
            format!("{n}枚({}枚、山{piles}つ)", (cards) * n),
        );
        ui.add(egui::Label::new(RichText::new(&text).size(20.0).strong()))
            .accessible_name(text);
        let more = ui
            .add_enabled(
                usize::from(form.draft_copies) < cards::games::junk_ken::draft::MAX_COPIES,
                Button::new(RichText::new("+").size(22.0)).min_size(Vec2::new(48.0, height)),
            )
            .accessible_name(lang.pick("More copies", "枚数を増やす"));
        if more.clicked() {
            form.draft_copies += 1;
        }
    });
}

/// A library error for the screen (its English sentence; the Japanese follows on a new line).
fn lang_neutral(e: &crate::store::LibraryError) -> String {
    format!("{e}\n{}", e.ja())
}

/// Writes a deck file beside the match log (`decks/<owner>-<name>.toml`); returns its path.
fn export_deck(store: &Store, deck: &Deck) -> Result<std::path::PathBuf, String> {
    let dir = store
        .path()
        .parent()
        .unwrap_or(std::path::Path::new("."))
        .join("decks");
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let path = dir.join(format!("{}-{}.toml", safe(&deck.owner), safe(&deck.name)));
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, deck.to_toml()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// "Discard" beside an unfinished match, asked again before it is done: the match stays in
/// the log and the history, marked abandoned.
fn discard_control(
    ui: &mut Ui,
    discarding: &mut Option<MatchId>,
    id: MatchId,
    lang: Lang,
) -> Option<StartAction> {
    let height = touch_height(ui, 40.0);
    let mut action = None;
    if *discarding == Some(id) {
        ui.label(
            RichText::new(lang.pick(
                "Discard it? It stays in the history as abandoned.",
                "破棄しますか?履歴には中断として残ります。",
            ))
            .size(16.0)
            .color(WARN),
        );
        let yes = lang.pick(format!("Yes, discard #{id}"), format!("はい、#{id} を破棄"));
        if ui
            .add(Button::new(RichText::new(&yes).size(17.0)).min_size(Vec2::new(0.0, height)))
            .accessible_name(&yes)
            .clicked()
        {
            action = Some(StartAction::Discard(id));
            *discarding = None;
        }
        let keep = lang.pick("Keep it", "残す");
        if ui
            .add(Button::new(RichText::new(keep).size(17.0)).min_size(Vec2::new(0.0, height)))
            .clicked()
        {
            *discarding = None;
        }
    } else {
        let text = lang.pick(format!("Discard #{id}…"), format!("#{id} を破棄…"));
        if ui
            .add(Button::new(RichText::new(&text).size(17.0)).min_size(Vec2::new(0.0, height)))
            .accessible_name(&text)
            .clicked()
        {
            *discarding = Some(id);
        }
    }
    action
}

/// A player's name: the field (for a laptop's keyboard), "⌨" for the on-screen keyboard, and
/// the names of recent matches as one tap each.
fn name_entry(ui: &mut Ui, form: &mut StartForm, seat: usize, recent: &[String], lang: Lang) {
    let Some(name) = form.names.get_mut(seat) else {
        return;
    };
    let height = touch_height(ui, 40.0);
    ui.horizontal(|ui| {
        ui.add(
            TextEdit::singleline(name)
                .font(egui::FontId::proportional(22.0))
                .desired_width((ui.available_width() - 60.0).max(80.0))
                .hint_text(lang.t().name_hint),
        )
        .accessible_name(lang.player_name(seat + 1));
        let open = form.keyboard_for == Some(seat);
        let toggle = lang.pick(
            format!("Keyboard: player {} name", seat + 1),
            format!("キーボード: プレイヤー {} の名前", seat + 1),
        );
        if ui
            .add(
                Button::new(RichText::new(lang.pick("Keys", "キー")).size(17.0))
                    .selected(open)
                    .min_size(Vec2::new(48.0, height)),
            )
            .accessible_name(toggle)
            .clicked()
        {
            form.keyboard_for = if open { None } else { Some(seat) };
            form.keyboard = Keyboard::for_lang(lang, true);
        }
    });
    if !recent.is_empty() {
        ui.horizontal_wrapped(|ui| {
            for r in recent {
                let tap = ui
                    .add(
                        Button::selectable(*name == *r, RichText::new(r).size(17.0))
                            .min_size(Vec2::new(0.0, height)),
                    )
                    .accessible_name(lang.pick(
                        format!("Player {} is {r}", seat + 1),
                        format!("プレイヤー {} は {r}", seat + 1),
                    ));
                if tap.clicked() {
                    *name = r.clone();
                }
            }
        });
    }
}

/// The on-screen keyboard under the players, for the name whose "⌨" was tapped.
fn names_keyboard(ui: &mut Ui, form: &mut StartForm, lang: Lang) {
    let Some(seat) = form.keyboard_for else {
        return;
    };
    let Some(name) = form.names.get_mut(seat) else {
        form.keyboard_for = None;
        return;
    };
    section(ui, &lang.player_name(seat + 1), |ui| {
        keys(ui, lang, name, &mut form.keyboard);
    });
}

/// One deck a player can choose.
fn deck_button(
    ui: &mut Ui,
    form: &mut StartForm,
    seat: usize,
    choice: DeckChoice,
    text: &str,
    name: &str,
) {
    let chosen = form.decks[seat] == choice;
    let height = touch_height(ui, 36.0);
    let button = ui
        .add(
            Button::selectable(chosen, RichText::new(text).size(17.0))
                .wrap()
                .min_size(Vec2::new(ui.available_width(), height)),
        )
        .accessible_name(name);
    if button.clicked() {
        form.decks[seat] = choice;
    }
}

/// The devices: the dice tower's link, and the camera (none in this build).
fn devices_section(ui: &mut Ui, dice: &DiceService, lang: Lang) {
    let t = lang.t();
    section(ui, t.devices, |ui| {
        let (headline, detail) = tower_line(dice, lang);
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!("{}:", t.dice_tower))
                    .size(17.0)
                    .strong(),
            );
            ui.label(RichText::new(headline).size(17.0));
            if let Some(d) = detail {
                ui.label(RichText::new(d).size(14.0).weak());
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("{}:", t.camera)).size(17.0).strong());
            ui.add(egui::Label::new(RichText::new(t.camera_none).size(17.0)).wrap());
        });
    });
}
