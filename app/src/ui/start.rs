//! The start screen: resume an unfinished match, or set up a new one (game, names, decks, house rules).

use super::widgets::{ACCENT, WARN, section, wide_button};
use crate::session::load_match;
use crate::store::{MatchId, MatchRecord, Store};
use cards::catalogue::Catalogue;
use cards::game::MatchHeader;
use cards::games::jaken::{Rules, Settlement, demo_header};
use egui::{Button, Frame, RichText, ScrollArea, Stroke, TextEdit, Ui, Vec2};

/// What the players fill in for a new match. Kept while the app runs, so "New match" starts
/// from the last names and decks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StartForm {
    /// Player names by seat.
    pub names: [String; 2],
    /// Deck ids (from the catalogue's decks) by seat.
    pub decks: [String; 2],
    /// Jaken house rules.
    pub rules: Rules,
}

impl StartForm {
    pub(crate) fn new(catalogue: Option<&Catalogue>) -> Self {
        let deck = |i: usize, fallback: &str| {
            catalogue
                .and_then(|c| c.decks.get(i))
                .map_or_else(|| fallback.to_owned(), |d| d.id.clone())
        };
        // The demo catalogue's decks are sorted by id (gale, lantern, tide): seat 0 gets lantern.
        let first = catalogue
            .and_then(|c| c.deck("lantern"))
            .map_or_else(|| deck(0, "lantern"), |d| d.id.clone());
        let second = catalogue
            .and_then(|c| c.deck("gale"))
            .map_or_else(|| deck(1, "gale"), |d| d.id.clone());
        StartForm {
            names: ["Player 1".to_owned(), "Player 2".to_owned()],
            decks: [first, second],
            rules: Rules::default(),
        }
    }

    /// The match header, or a sentence saying what is missing.
    pub(crate) fn header(&self, catalogue: &Catalogue) -> Result<MatchHeader, String> {
        let names = [self.names[0].trim(), self.names[1].trim()];
        if names.iter().any(|n| n.is_empty()) {
            return Err("Enter a name for both players.".to_owned());
        }
        if names[0] == names[1] {
            return Err("The two players need different names.".to_owned());
        }
        let mut header = demo_header(
            catalogue,
            names,
            [self.decks[0].as_str(), self.decks[1].as_str()],
        )
        .map_err(|e| e.to_string())?;
        header.rules = serde_json::to_value(&self.rules).map_err(|e| e.to_string())?;
        Ok(header)
    }
}

/// One unfinished match offered for resuming.
#[derive(Clone, Debug, PartialEq)]
struct Resumable {
    id: MatchId,
    /// "Aki vs Ben".
    players: String,
    /// "Jaken · 23 entries".
    detail: String,
    /// Where it stands ("battle 4/10 · SB Aki 12, Ben 8"), for the most recent one.
    standing: Option<String>,
}

/// The start screen with the open store.
pub(crate) struct StartScreen {
    /// The match store (moved into the session when a match starts).
    pub store: Store,
    resumable: Vec<Resumable>,
    /// Why the last start or resume failed, or why the list could not be read.
    pub message: Option<String>,
}

/// What the players chose on the start screen.
pub(crate) enum StartAction {
    /// Start a new match with this header.
    Start(MatchHeader),
    /// Resume this stored match.
    Resume(MatchId),
    /// Close the window (kiosk mode has no title bar).
    Quit,
}

fn players_of(record: &MatchRecord) -> String {
    match serde_json::from_str::<MatchHeader>(&record.header_json) {
        Ok(h) => h
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
            .join(" vs "),
        Err(_) => "(players unreadable)".to_owned(),
    }
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
    /// Reads the unfinished matches of `store`.
    pub(crate) fn new(store: Store, message: Option<String>) -> Self {
        let mut screen = StartScreen {
            store,
            resumable: Vec::new(),
            message,
        };
        match screen.store.unfinished() {
            Ok(records) => {
                screen.resumable = records
                    .iter()
                    .enumerate()
                    .map(|(i, r)| Resumable {
                        id: r.id,
                        players: players_of(r),
                        detail: format!("{} · {} entries", super::game_title(&r.game), r.entries),
                        standing: if i == 0 {
                            standing(&screen.store, r.id)
                        } else {
                            None
                        },
                    })
                    .collect();
            }
            Err(e) => {
                let text = format!("The unfinished matches cannot be listed: {e}");
                screen.message = Some(match screen.message.take() {
                    Some(m) => format!("{m}\n{text}"),
                    None => text,
                });
            }
        }
        screen
    }

    /// Draws the screen; returns what the players chose.
    pub(crate) fn show(
        &mut self,
        ui: &mut Ui,
        form: &mut StartForm,
        catalogue: Result<&Catalogue, &str>,
        kiosk: bool,
    ) -> Option<StartAction> {
        let mut action = None;
        egui::CentralPanel::default().show(ui, |ui| {
            ScrollArea::vertical().id_salt("start").show(ui, |ui| {
                // Room for the scroll bar, which floats over the content.
                ui.set_max_width(ui.available_width() - 18.0);
                ui.horizontal(|ui| {
                    ui.label(RichText::new("Tableside").size(40.0).strong());
                    ui.label(
                        RichText::new("the numbers beside your card table")
                            .size(20.0)
                            .weak(),
                    );
                    if kiosk {
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            if ui.button(RichText::new("Quit").size(18.0)).clicked() {
                                action = Some(StartAction::Quit);
                            }
                        });
                    }
                });
                ui.label(
                    RichText::new(format!("Match log: {}", self.store.path().display()))
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
                if let Some(a) = self.resume_section(ui) {
                    action = Some(a);
                }
                ui.add_space(10.0);
                if let Some(a) = new_match_section(ui, form, catalogue) {
                    action = Some(a);
                }
            });
        });
        action
    }

    fn resume_section(&self, ui: &mut Ui) -> Option<StartAction> {
        let (first, rest) = self.resumable.split_first()?;
        let mut action = None;
        Frame::new()
            .stroke(Stroke::new(3.0, ACCENT))
            .corner_radius(8.0)
            .inner_margin(14.0)
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(
                    RichText::new("An unfinished match is waiting")
                        .size(26.0)
                        .strong()
                        .color(ACCENT),
                );
                ui.label(
                    RichText::new(format!("Match #{} · {}", first.id, first.players)).size(24.0),
                );
                ui.label(RichText::new(&first.detail).size(17.0));
                if let Some(standing) = &first.standing {
                    ui.label(RichText::new(standing).size(17.0));
                }
                ui.add_space(6.0);
                if wide_button(ui, &format!("Resume match #{}", first.id), 320.0, true).clicked() {
                    action = Some(StartAction::Resume(first.id));
                }
                if !rest.is_empty() {
                    ui.add_space(8.0);
                    ui.label(RichText::new("Other unfinished matches").size(17.0).weak());
                    for r in rest {
                        ui.horizontal(|ui| {
                            let resume = ui.add(
                                Button::new(
                                    RichText::new(format!("Resume match #{}", r.id)).size(18.0),
                                )
                                .min_size(Vec2::new(200.0, 40.0)),
                            );
                            if resume.clicked() {
                                action = Some(StartAction::Resume(r.id));
                            }
                            ui.label(
                                RichText::new(format!("{} · {}", r.players, r.detail)).size(17.0),
                            );
                        });
                    }
                }
            });
        action
    }
}

fn new_match_section(
    ui: &mut Ui,
    form: &mut StartForm,
    catalogue: Result<&Catalogue, &str>,
) -> Option<StartAction> {
    let mut action = None;
    ui.label(RichText::new("New match").size(28.0).strong());
    let catalogue = match catalogue {
        Ok(c) => c,
        Err(e) => {
            ui.label(
                RichText::new(format!(
                    "The card catalogue cannot be loaded, so no match can start: {e}"
                ))
                .size(18.0)
                .color(WARN),
            );
            return None;
        }
    };
    ui.horizontal(|ui| {
        ui.label(RichText::new("Game").size(18.0));
        // Jaken is the only game this build can play; the button shows it is chosen.
        ui.add(
            Button::selectable(true, RichText::new("Jaken ジャケン").size(20.0))
                .min_size(Vec2::new(160.0, 40.0)),
        );
    });
    if catalogue.set.demo {
        ui.label(
            RichText::new(format!(
                "Cards: {} — {}",
                catalogue.set.name_ja, catalogue.set.note
            ))
            .size(14.0)
            .weak(),
        );
    }
    ui.add_space(6.0);
    ui.columns(2, |cols| {
        for (seat, ui) in cols.iter_mut().enumerate() {
            section(ui, &format!("Player {}", seat + 1), |ui| {
                ui.add(
                    TextEdit::singleline(&mut form.names[seat])
                        .font(egui::FontId::proportional(22.0))
                        .desired_width(f32::INFINITY)
                        .hint_text("name"),
                )
                .accessible_name(format!("Player {} name", seat + 1));
                ui.add_space(4.0);
                ui.label(RichText::new("Deck").size(16.0).weak());
                for deck in &catalogue.decks {
                    let chosen = form.decks[seat] == deck.id;
                    let button = ui
                        .add(
                            Button::selectable(
                                chosen,
                                RichText::new(format!("{} — {}", deck.id, deck.name)).size(17.0),
                            )
                            .wrap()
                            .min_size(Vec2::new(ui.available_width(), 36.0)),
                        )
                        .accessible_name(format!("Player {} deck: {}", seat + 1, deck.id));
                    if button.clicked() {
                        form.decks[seat] = deck.id.clone();
                    }
                }
            });
        }
    });
    ui.add_space(6.0);
    section(ui, "House rules (rules/jaken.md §10)", |ui| {
        let rules = &mut form.rules;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Settle the two strikes:").size(17.0));
            ui.radio_value(
                &mut rules.settlement,
                Settlement::Net,
                RichText::new("as one net transfer").size(17.0),
            );
            ui.radio_value(
                &mut rules.settlement,
                Settlement::ParentFirst,
                RichText::new("parent's strike first, stop at 0").size(17.0),
            );
        });
        ui.columns(2, |cols| {
            cols[0].checkbox(
                &mut rules.draw_in_battle_1,
                RichText::new("Both players draw in battle 1 too").size(17.0),
            );
            cols[0].checkbox(
                &mut rules.clamp_negative,
                RichText::new("ATK and DEF below 0 count as 0").size(17.0),
            );
            cols[1].checkbox(
                &mut rules.bg_multiple_uses_per_battle,
                RichText::new("A BG may be used several times in one battle").size(17.0),
            );
            cols[1].checkbox(
                &mut rules.bg_stays_until_exhausted,
                RichText::new("A BG stays in its zone until its uses run out").size(17.0),
            );
        });
    });
    ui.add_space(10.0);
    let header = form.header(catalogue);
    ui.horizontal(|ui| {
        if wide_button(ui, "Start", 240.0, header.is_ok()).clicked()
            && let Ok(h) = &header
        {
            action = Some(StartAction::Start(h.clone()));
        }
        if let Err(why) = &header {
            ui.label(RichText::new(why).size(18.0).color(WARN));
        }
    });
    action
}
