//! The history screen: the stored matches with win rates per game, per player and per deck
//! ([`win_rates`], a pure function of the stored headers and outcomes), a step-by-step replay
//! of any stored match, and its export as JSON or CSV (the same documents as
//! `tableside log export`, from [`crate::export`]).

use super::i18n::Lang;
use super::widgets::{ACCENT, WARN, key_button, section};
use crate::export::{Format, export_match};
use crate::session::match_catalogue;
use crate::store::{MatchId, MatchRecord, MatchStatus, Store};
use cards::catalogue::Catalogue;
use cards::core::{MatchCtx, Outcome, Tracker};
use cards::game::MatchHeader;
use cards::matches::{LogLine, replay_json};
use egui::{Grid, RichText, ScrollArea, Ui};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Wins, draws and matches played by one player, deck or game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Finished matches.
    pub played: u32,
    /// Of those, won.
    pub won: u32,
    /// Of those, drawn.
    pub draws: u32,
}

impl Tally {
    /// Won / played, `None` before the first finished match.
    pub fn win_rate(&self) -> Option<f64> {
        (self.played > 0).then(|| f64::from(self.won) / f64::from(self.played))
    }

    /// "67 %" or "–".
    pub fn rate_text(&self) -> String {
        self.win_rate()
            .map_or_else(|| "–".to_owned(), |r| format!("{:.0} %", r * 100.0))
    }
}

/// The win rates of the stored, finished matches; every list sorted by its keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WinRates {
    /// Per game: finished matches and draws (`won` counts matches that had a winner).
    pub games: Vec<(String, Tally)>,
    /// Per game and player name.
    pub players: Vec<(String, String, Tally)>,
    /// Per game and deck (`PlayerConfig::deck_name`, e.g. `jaken-demo/lantern`).
    pub decks: Vec<(String, String, Tally)>,
}

/// Counts the finished matches: each `(header, outcome)` pair is one stored match; matches
/// without an outcome (unfinished) are not counted.
pub fn win_rates(matches: &[(MatchHeader, Option<Outcome>)]) -> WinRates {
    let mut games: BTreeMap<String, Tally> = BTreeMap::new();
    let mut players: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut decks: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for (header, outcome) in matches {
        let Some(outcome) = outcome else {
            continue;
        };
        let game = header.game.as_str().to_owned();
        let g = games.entry(game.clone()).or_default();
        g.played += 1;
        match outcome {
            Outcome::Win { .. } => g.won += 1,
            Outcome::Draw { .. } => g.draws += 1,
        }
        for (seat, p) in header.players.iter().enumerate() {
            let (won, draw) = match outcome {
                Outcome::Win { winner, .. } => (*winner == seat, false),
                Outcome::Draw { .. } => (false, true),
            };
            for tally in [
                players.entry((game.clone(), p.name.clone())).or_default(),
                decks
                    .entry((game.clone(), p.deck_name.clone()))
                    .or_default(),
            ] {
                tally.played += 1;
                tally.won += u32::from(won);
                tally.draws += u32::from(draw);
            }
        }
    }
    WinRates {
        games: games.into_iter().collect(),
        players: players.into_iter().map(|((g, n), t)| (g, n, t)).collect(),
        decks: decks.into_iter().map(|((g, d), t)| (g, d, t)).collect(),
    }
}

/// The header and outcome of a stored record (`None` when its header cannot be read).
fn parsed(record: &MatchRecord) -> Option<(MatchHeader, Option<Outcome>)> {
    let header = serde_json::from_str(&record.header_json).ok()?;
    let outcome = record
        .outcome_json
        .as_deref()
        .and_then(|j| serde_json::from_str(j).ok());
    Some((header, outcome))
}

/// One stored match in the list.
struct Row {
    id: MatchId,
    title: String,
    result: String,
}

/// The state of a match after its first `step` entries.
struct Frame {
    ctx: MatchCtx,
    trackers: Vec<Tracker>,
    log: Vec<LogLine>,
    outcome: Option<Outcome>,
}

/// A stored match being stepped through.
struct Replay {
    id: MatchId,
    header: MatchHeader,
    inputs: Vec<String>,
    step: usize,
    frame: Result<Frame, String>,
    /// The catalogue version the match was played with.
    catalogue: Result<Catalogue, String>,
}

impl Replay {
    fn open(store: &Store, id: MatchId) -> Result<Replay, String> {
        // One snapshot: a match being written is stepped through as it stood at one commit.
        let (header, inputs, catalogue) = store
            .read(|store| {
                let record = store.get(id)?;
                let header: MatchHeader = serde_json::from_str(&record.header_json)?;
                let inputs: Vec<String> = store
                    .entries(id)?
                    .into_iter()
                    .map(|e| e.input_json)
                    .collect();
                let catalogue = match_catalogue(store, id, &header).map_err(|e| e.to_string());
                Ok::<_, anyhow::Error>((header, inputs, catalogue))
            })
            .map_err(|e| e.to_string())?;
        let mut replay = Replay {
            id,
            header,
            inputs,
            step: 0,
            frame: Err(String::new()),
            catalogue,
        };
        replay.go(0);
        Ok(replay)
    }

    /// Replays the first `step` entries.
    fn go(&mut self, step: usize) {
        self.step = step.min(self.inputs.len());
        self.frame = self
            .catalogue
            .clone()
            .and_then(|catalogue| {
                replay_json(
                    self.header.clone(),
                    &catalogue,
                    self.inputs[..self.step].iter().map(String::as_str),
                )
                .map_err(|e| e.to_string())
            })
            .map(|m| Frame {
                ctx: m.context(),
                trackers: m.trackers(),
                log: m.log(),
                outcome: m.outcome(),
            });
    }
}

/// What the history screen asks of the app.
pub(crate) enum HistoryAction {
    /// Back to the start screen.
    Back,
    /// Switch the language.
    ToggleLang,
}

/// The history screen with the open store.
pub(crate) struct HistoryScreen {
    /// The match store (given back to the start screen).
    pub store: Store,
    rows: Vec<Row>,
    rates: WinRates,
    replay: Option<Replay>,
    message: Option<(bool, String)>,
}

fn players_text(header: &MatchHeader) -> String {
    header
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(" vs ")
}

fn outcome_text(lang: Lang, header: &MatchHeader, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            let name = header.players.get(*winner).map_or("?", |p| p.name.as_str());
            format!("{} — {reason}", lang.wins(name))
        }
        Outcome::Draw { reason } => format!("{} — {reason}", lang.t().draw),
    }
}

impl HistoryScreen {
    /// Reads the stored matches of `store`.
    pub(crate) fn new(store: Store, lang: Lang) -> Self {
        let mut screen = HistoryScreen {
            store,
            rows: Vec::new(),
            rates: WinRates::default(),
            replay: None,
            message: None,
        };
        screen.reload(lang);
        screen
    }

    fn reload(&mut self, lang: Lang) {
        let listed = match self.store.list() {
            Ok(r) => r,
            Err(e) => {
                self.message = Some((true, e.to_string()));
                return;
            }
        };
        // A damaged row is shown as such; every other match stays listed and counted.
        let mut records = Vec::new();
        let mut damaged = Vec::new();
        for row in listed {
            match row {
                Ok(r) => records.push(r),
                Err(d) => damaged.push(d),
            }
        }
        self.message = read_only_banner(&self.store, lang).map(|m| (true, m));
        let mut parsed_all = Vec::new();
        let damaged_rows = damaged.iter().map(|d| Row {
            id: d.id,
            title: format!("#{}", d.id),
            result: d.to_string(),
        });
        self.rows = records
            .iter()
            .rev()
            .map(|r| {
                let p = parsed(r);
                let (title, result) = match &p {
                    Some((h, o)) => (
                        format!(
                            "#{} {} · {}",
                            r.id,
                            super::games::title(h.game.as_str()),
                            players_text(h)
                        ),
                        match o {
                            Some(o) => outcome_text(lang, h, o),
                            None if r.status == MatchStatus::Finished => String::new(),
                            None => lang.t().unfinished.to_owned(),
                        },
                    ),
                    None => (
                        format!("#{} {}", r.id, r.game),
                        lang.t().players_unreadable.to_owned(),
                    ),
                };
                if let Some(p) = p {
                    parsed_all.push(p);
                }
                Row {
                    id: r.id,
                    title,
                    result,
                }
            })
            .collect();
        self.rows.extend(damaged_rows);
        self.rates = win_rates(&parsed_all);
    }

    /// Draws the screen; returns what the players chose.
    pub(crate) fn show(&mut self, ui: &mut Ui, lang: Lang, kiosk: bool) -> Option<HistoryAction> {
        let t = lang.t();
        let mut action = None;
        let keys = kiosk && !ui.ctx().egui_wants_keyboard_input();
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(t.history_title).size(36.0).strong());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if key_button(ui, t.back_to_start, kiosk.then_some("Esc"), 0.0).clicked()
                        || (keys && ui.input(|i| i.key_pressed(egui::Key::Escape)))
                    {
                        action = Some(HistoryAction::Back);
                    }
                    if key_button(ui, t.other_language, kiosk.then_some("L"), 0.0).clicked()
                        || (keys && ui.input(|i| i.key_pressed(egui::Key::L)))
                    {
                        action = Some(HistoryAction::ToggleLang);
                    }
                });
            });
            if let Some((bad, m)) = &self.message {
                let colour = if *bad { WARN } else { ACCENT };
                ui.add(egui::Label::new(RichText::new(m).size(17.0).color(colour)).wrap());
            }
            ScrollArea::vertical()
                .id_salt("history")
                .auto_shrink(false)
                .show(ui, |ui| {
                    ui.set_max_width(ui.available_width() - 18.0);
                    if self.rows.is_empty() {
                        ui.label(RichText::new(t.no_matches).size(20.0));
                    }
                    self.rates_section(ui, lang);
                    if self.replay.is_some() {
                        self.replay_section(ui, lang, keys);
                    }
                    self.list_section(ui, lang);
                });
        });
        action
    }

    fn rates_section(&self, ui: &mut Ui, lang: Lang) {
        let t = lang.t();
        if self.rates.games.is_empty() {
            return;
        }
        let head = |ui: &mut Ui, first: &str, second: &str| {
            for h in [first, second, t.played, t.won, t.draws, t.win_rate] {
                ui.label(RichText::new(h).size(16.0).weak());
            }
            ui.end_row();
        };
        let row = |ui: &mut Ui, first: &str, second: &str, tally: &Tally| {
            ui.label(RichText::new(first).size(18.0));
            ui.label(RichText::new(second).size(18.0));
            ui.label(RichText::new(tally.played.to_string()).size(18.0));
            ui.label(RichText::new(tally.won.to_string()).size(18.0));
            ui.label(RichText::new(tally.draws.to_string()).size(18.0));
            ui.label(RichText::new(tally.rate_text()).size(22.0).strong())
                .accessible_name(format!("{first} {second}: {}", tally.rate_text()));
            ui.end_row();
        };
        section(ui, t.by_game, |ui| {
            Grid::new("rates-games").striped(true).show(ui, |ui| {
                for h in [t.game, t.played, t.draws] {
                    ui.label(RichText::new(h).size(16.0).weak());
                }
                ui.end_row();
                for (game, tally) in &self.rates.games {
                    ui.label(RichText::new(super::games::title(game)).size(18.0));
                    ui.label(RichText::new(tally.played.to_string()).size(22.0).strong());
                    ui.label(RichText::new(tally.draws.to_string()).size(18.0));
                    ui.end_row();
                }
            });
        });
        section(ui, t.by_player, |ui| {
            Grid::new("rates-players").striped(true).show(ui, |ui| {
                head(ui, t.game, t.players);
                for (game, name, tally) in &self.rates.players {
                    row(ui, &super::games::title(game), name, tally);
                }
            });
        });
        section(ui, t.by_deck, |ui| {
            Grid::new("rates-decks").striped(true).show(ui, |ui| {
                head(ui, t.game, t.deck);
                for (game, deck, tally) in &self.rates.decks {
                    row(ui, &super::games::title(game), deck, tally);
                }
            });
        });
    }

    fn list_section(&mut self, ui: &mut Ui, lang: Lang) {
        let t = lang.t();
        let mut replay = None;
        let mut export = None;
        section(ui, t.stored_matches, |ui| {
            for r in &self.rows {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(&r.title).size(19.0).strong());
                    ui.label(RichText::new(&r.result).size(17.0));
                });
                ui.horizontal_wrapped(|ui| {
                    if key_button(ui, t.replay, None, 0.0)
                        .accessible_name(format!("{} #{}", t.replay, r.id))
                        .clicked()
                    {
                        replay = Some(r.id);
                    }
                    for (format, text) in
                        [(Format::Json, t.export_json), (Format::Csv, t.export_csv)]
                    {
                        if key_button(ui, text, None, 0.0)
                            .accessible_name(format!("{text} #{}", r.id))
                            .clicked()
                        {
                            export = Some((r.id, format));
                        }
                    }
                });
                ui.separator();
            }
        });
        if let Some(id) = replay {
            match Replay::open(&self.store, id) {
                Ok(r) => {
                    self.replay = Some(r);
                    self.message = None;
                }
                Err(e) => self.message = Some((true, e)),
            }
        }
        if let Some((id, format)) = export {
            self.message = Some(match self.export(id, format) {
                Ok(path) => (false, lang.written(&path.display().to_string())),
                Err(e) => (true, e.to_string()),
            });
        }
    }

    /// Writes `<data dir>/exports/match-<id>.<ext>`.
    fn export(&self, id: MatchId, format: Format) -> anyhow::Result<PathBuf> {
        let text = export_match(&self.store, id, format)?;
        let dir = self
            .store
            .path()
            .parent()
            .map_or_else(|| PathBuf::from("exports"), |p| p.join("exports"));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("match-{}.{}", id.0, format.extension()));
        std::fs::write(&path, text)?;
        Ok(path)
    }

    fn replay_section(&mut self, ui: &mut Ui, lang: Lang, keys: bool) {
        let t = lang.t();
        let Some(replay) = &mut self.replay else {
            return;
        };
        let total = replay.inputs.len();
        let title = format!(
            "{} #{} · {}",
            t.replay,
            replay.id,
            players_text(&replay.header)
        );
        let mut go = None;
        section(ui, &title, |ui| {
            ui.horizontal_wrapped(|ui| {
                let step = replay.step;
                if key_button(ui, t.first_step, keys.then_some("Home"), 0.0).clicked() {
                    go = Some(0);
                }
                if key_button(ui, t.step_back, keys.then_some("←"), 0.0).clicked() {
                    go = Some(step.saturating_sub(1));
                }
                ui.label(RichText::new(lang.step_of(step, total)).size(26.0).strong());
                if key_button(ui, t.step_forward, keys.then_some("→"), 0.0).clicked() {
                    go = Some(step + 1);
                }
                if key_button(ui, t.last_step, keys.then_some("End"), 0.0).clicked() {
                    go = Some(total);
                }
            });
            if keys {
                ui.input(|i| {
                    if i.key_pressed(egui::Key::ArrowLeft) {
                        go = Some(replay.step.saturating_sub(1));
                    }
                    if i.key_pressed(egui::Key::ArrowRight) {
                        go = Some(replay.step + 1);
                    }
                    if i.key_pressed(egui::Key::Home) {
                        go = Some(0);
                    }
                    if i.key_pressed(egui::Key::End) {
                        go = Some(total);
                    }
                });
            }
            match &replay.frame {
                Err(e) => {
                    ui.label(RichText::new(e).size(17.0).color(WARN));
                }
                Ok(frame) => {
                    let last = frame.log.last().map_or_else(
                        || t.before_first.to_owned(),
                        |l| format!("#{} {}", l.seq, l.text),
                    );
                    ui.add(egui::Label::new(RichText::new(last).size(20.0).color(ACCENT)).wrap());
                    ui.label(RichText::new(&frame.ctx.phase.step).size(18.0));
                    if let Some(o) = &frame.outcome {
                        ui.label(
                            RichText::new(outcome_text(lang, &replay.header, o))
                                .size(22.0)
                                .strong(),
                        );
                    }
                    ui.label(RichText::new(t.numbers_here).size(15.0).weak());
                    Grid::new("replay-numbers").striped(true).show(ui, |ui| {
                        for tr in &frame.trackers {
                            let who = tr
                                .id
                                .player
                                .and_then(|s| frame.ctx.players.get(s))
                                .map(|n| lang.whose(n))
                                .unwrap_or_default();
                            let caption = format!("{who}{}", tr.label);
                            ui.label(RichText::new(&caption).size(17.0));
                            ui.label(RichText::new(tr.value.to_string()).size(24.0).strong())
                                .accessible_name(format!("{caption}: {}", tr.value));
                            ui.end_row();
                        }
                    });
                }
            }
        });
        if let Some(step) = go
            && step != replay.step
            && step <= total
        {
            replay.go(step);
        }
    }
}

/// The banner of a store opened read-only because the media is: why nothing can be saved, in
/// the player's language; `None` for a writable store. (One function, for the history screen.)
fn read_only_banner(store: &Store, lang: Lang) -> Option<String> {
    let note = store.read_only_media()?;
    Some(match lang {
        Lang::Ja => note.ja(),
        Lang::En => note.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::core::GameId;
    use cards::game::PlayerConfig;

    fn header(game: GameId, a: (&str, &str), b: (&str, &str)) -> MatchHeader {
        let p = |(name, deck): (&str, &str)| PlayerConfig {
            name: name.to_owned(),
            deck_name: deck.to_owned(),
            deck: Vec::new(),
        };
        MatchHeader {
            game,
            catalogue: "demo".to_owned(),
            players: vec![p(a), p(b)],
            rules: serde_json::Value::Null,
        }
    }

    fn win(winner: usize) -> Option<Outcome> {
        Some(Outcome::Win {
            winner,
            reason: String::new(),
        })
    }

    #[test]
    fn win_rates_count_finished_matches_per_game_player_and_deck() {
        let ab = header(GameId::Jaken, ("Aki", "d/lantern"), ("Ben", "d/gale"));
        let ba = header(GameId::Jaken, ("Ben", "d/lantern"), ("Aki", "d/tide"));
        let matches = vec![
            (ab.clone(), win(0)),
            (ab.clone(), win(1)),
            (ba, win(1)),
            (
                ab.clone(),
                Some(Outcome::Draw {
                    reason: String::new(),
                }),
            ),
            (ab, None), // unfinished: not counted
        ];
        let rates = win_rates(&matches);
        assert_eq!(
            rates.games,
            vec![(
                "jaken".to_owned(),
                Tally {
                    played: 4,
                    won: 3,
                    draws: 1
                }
            )]
        );
        let aki = Tally {
            played: 4,
            won: 2,
            draws: 1,
        };
        let ben = Tally {
            played: 4,
            won: 1,
            draws: 1,
        };
        assert_eq!(
            rates.players,
            vec![
                ("jaken".to_owned(), "Aki".to_owned(), aki),
                ("jaken".to_owned(), "Ben".to_owned(), ben)
            ]
        );
        assert_eq!(aki.rate_text(), "50 %");
        let lantern = rates
            .decks
            .iter()
            .find(|(_, d, _)| d == "d/lantern")
            .map(|(_, _, t)| *t);
        // lantern: Aki won, Aki lost, Ben (lantern) lost, drew.
        assert_eq!(
            lantern,
            Some(Tally {
                played: 4,
                won: 1,
                draws: 1
            })
        );
        let decks: Vec<&str> = rates.decks.iter().map(|(_, d, _)| d.as_str()).collect();
        assert_eq!(decks, ["d/gale", "d/lantern", "d/tide"], "sorted");
    }

    #[test]
    fn no_finished_match_gives_no_rate() {
        let rates = win_rates(&[]);
        assert!(rates.games.is_empty());
        assert_eq!(Tally::default().win_rate(), None);
        assert_eq!(Tally::default().rate_text(), "–");
    }
}
