//! The deck editor of the start screen: build a deck from a set's cards at the table.
//!
//! Touch first (48 px targets; the one text a player must type is the search, which an
//! on-screen keyboard can feed): search a card by part of its Japanese or English name or its id
//! ([`crate::card_search`]), add and remove copies, and see every construction rule the deck
//! breaks, live, with its sentence. The deck is saved as a registered deck of a named owner, or
//! exported as a deck file; the screen that holds the store does either ([`EditorAction`]).
//!
//! At 800×480 the search and the deck stand side by side; narrower, one above the other.

use super::i18n::Lang;
use super::widgets::{WARN, section, touch_height};
use crate::card_search::SearchIndex;
use cards::catalogue::{Catalogue, DeckList};
use cards::core::Violation;
use cards::decks::Deck;
use egui::{Button, RichText, ScrollArea, TextEdit, Ui, Vec2};
use std::collections::BTreeMap;

/// At most this many search results are listed (the rest are counted).
const SHOWN_RESULTS: usize = 60;

/// What the editor asks of the screen holding the store.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum EditorAction {
    /// Register this deck (its owner, name and copies).
    Save(Deck),
    /// Write this deck as a deck file.
    Export(Deck),
    /// Close the editor.
    Close,
}

/// A deck being built from one set of the library.
pub(crate) struct DeckEditor {
    catalogue: Catalogue,
    index: SearchIndex,
    /// The search as typed.
    pub query: String,
    /// The deck's name.
    pub name: String,
    /// Whose deck it is.
    pub owner: String,
    /// Copies per card id.
    counts: BTreeMap<String, u16>,
    /// The search results for `searched` (positions in the catalogue's cards).
    hits: Vec<usize>,
    searched: Option<String>,
    /// The deck and what it breaks, for the counts as they are.
    checked: Option<Result<(Deck, Vec<Violation>), String>>,
    /// The last save or export, and whether it went wrong.
    pub message: Option<(bool, String)>,
}

impl DeckEditor {
    /// An empty deck of `catalogue`'s set for `owner`.
    pub(crate) fn new(catalogue: Catalogue, owner: &str) -> DeckEditor {
        // A name to keep or edit: a kiosk has no keyboard beyond the search box's.
        let name = format!("{} deck", catalogue.set.id);
        DeckEditor {
            index: SearchIndex::new(&catalogue),
            catalogue,
            query: String::new(),
            name,
            owner: owner.to_owned(),
            counts: BTreeMap::new(),
            hits: Vec::new(),
            searched: None,
            checked: None,
            message: None,
        }
    }

    /// Copies of `card` in the deck.
    pub(crate) fn copies(&self, card: &str) -> u16 {
        self.counts.get(card).copied().unwrap_or(0)
    }

    /// Sets the copies of `card` (0 takes it out).
    pub(crate) fn set_copies(&mut self, card: &str, copies: u16) {
        if copies == 0 {
            self.counts.remove(card);
        } else if self.catalogue.card(card).is_some() {
            self.counts
                .insert(card.to_owned(), copies.min(cards::tags::MAX_COPY));
        }
        self.checked = None;
    }

    /// The search results for the query as it is now (searched again only when it changed).
    pub(crate) fn results(&mut self) -> &[usize] {
        if self.searched.as_deref() != Some(self.query.as_str()) {
            self.hits = self.index.search(&self.query, SHOWN_RESULTS + 1);
            self.searched = Some(self.query.clone());
        }
        &self.hits
    }

    /// The deck as it stands, and every construction rule it breaks; `Err` says why there is
    /// no deck yet (no name, no owner, no card).
    pub(crate) fn checked(&mut self) -> &Result<(Deck, Vec<Violation>), String> {
        if self.checked.is_none() {
            self.checked = Some(self.build());
        }
        self.checked.get_or_insert_with(|| Err(String::new()))
    }

    fn build(&self) -> Result<(Deck, Vec<Violation>), String> {
        let ids: Vec<String> = self
            .counts
            .iter()
            .flat_map(|(id, n)| std::iter::repeat_n(id.clone(), usize::from(*n)))
            .collect();
        // The deck's cards as a one-list catalogue, so the deck is laid out (main or extra
        // deck, copy numbers) exactly as the game lays out a ready-made list.
        let mini = Catalogue {
            game: self.catalogue.game,
            set: self.catalogue.set.clone(),
            cards: self
                .counts
                .keys()
                .filter_map(|id| self.catalogue.card(id).cloned())
                .collect(),
            decks: vec![DeckList {
                id: "draft".into(),
                name: self.name.trim().to_owned(),
                name_ja: String::new(),
                cards: ids,
            }],
        };
        let deck = Deck::from_list(&mini, "draft", self.owner.trim())
            .ok_or_else(|| "the deck could not be laid out".to_owned())?;
        let violations = deck.check(&self.catalogue).map_err(|e| e.to_string())?;
        Ok((deck, violations))
    }

    /// Draws the editor; returns what the players asked for.
    pub(crate) fn show(&mut self, ui: &mut Ui, lang: Lang) -> Option<EditorAction> {
        let mut action = None;
        let set_name = lang.pick(&self.catalogue.set.name_en, &self.catalogue.set.name_ja);
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(lang.pick("Build a deck", "デッキを組む"))
                    .size(24.0)
                    .strong(),
            );
            ui.label(RichText::new(format!("— {set_name}")).size(17.0));
            let height = touch_height(ui, 48.0);
            if ui
                .add(
                    Button::new(RichText::new(lang.pick("Close", "閉じる")).size(18.0))
                        .min_size(Vec2::new(96.0, height)),
                )
                .accessible_name(lang.pick("Close the deck editor", "デッキ編集を閉じる"))
                .clicked()
            {
                action = Some(EditorAction::Close);
            }
        });
        let wide = ui.available_width() >= 700.0;
        if wide {
            ui.columns(2, |cols| {
                self.search_column(&mut cols[0], lang);
                if let Some(a) = self.deck_column(&mut cols[1], lang) {
                    action = Some(a);
                }
            });
        } else {
            self.search_column(ui, lang);
            if let Some(a) = self.deck_column(ui, lang) {
                action = Some(a);
            }
        }
        action
    }

    fn search_column(&mut self, ui: &mut Ui, lang: Lang) {
        let label = lang.pick("Search cards", "カード検索");
        ui.add(
            TextEdit::singleline(&mut self.query)
                .font(egui::FontId::proportional(20.0))
                .desired_width(f32::INFINITY)
                .hint_text(lang.pick("name (日本語 / English) or id", "名前(日本語・英語)かID")),
        )
        .accessible_name(label);
        let hits = self.results().to_vec();
        let more = hits.len() > SHOWN_RESULTS;
        let height = touch_height(ui, 48.0);
        ScrollArea::vertical()
            .id_salt("deck-editor-results")
            .max_height(ui.available_height().max(height * 4.0) - 8.0)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                if hits.is_empty() {
                    ui.label(
                        RichText::new(
                            lang.pick("No card matches.", "一致するカードはありません。"),
                        )
                        .size(16.0)
                        .weak(),
                    );
                }
                for &i in hits.iter().take(SHOWN_RESULTS) {
                    let Some(card) = self.catalogue.cards.get(i) else {
                        continue;
                    };
                    let (id, name) = (card.id.clone(), card.name(lang.code()).to_owned());
                    let other = card
                        .name(if lang.code() == "ja" { "en" } else { "ja" })
                        .to_owned();
                    let copies = self.copies(&id);
                    ui.horizontal(|ui| {
                        let add = ui
                            .add(
                                Button::new(RichText::new("+").size(24.0))
                                    .min_size(Vec2::new(48.0, height)),
                            )
                            .accessible_name(format!("{} {name} ({id})", lang.pick("Add", "追加")));
                        if add.clicked() {
                            self.set_copies(&id, copies.saturating_add(1));
                        }
                        let count = if copies > 0 {
                            format!("×{copies}  ")
                        } else {
                            String::new()
                        };
                        ui.add(
                            egui::Label::new(
                                RichText::new(format!("{count}{id}  {name}  ({other})")).size(16.0),
                            )
                            .truncate(),
                        );
                    });
                }
                if more {
                    ui.label(
                        RichText::new(lang.pick(
                            "… more: type more of the name",
                            "…ほかにもあります。名前をもう少し入力してください",
                        ))
                        .size(15.0)
                        .weak(),
                    );
                }
            });
    }

    fn deck_column(&mut self, ui: &mut Ui, lang: Lang) -> Option<EditorAction> {
        let mut action = None;
        let mut typed = false;
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.pick("Deck", "デッキ名")).size(16.0));
            typed |= ui
                .add(
                    TextEdit::singleline(&mut self.name)
                        .font(egui::FontId::proportional(18.0))
                        .desired_width(f32::INFINITY),
                )
                .accessible_name(lang.pick("Deck name", "デッキ名"))
                .changed();
        });
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.pick("Owner", "持ち主")).size(16.0));
            typed |= ui
                .add(
                    TextEdit::singleline(&mut self.owner)
                        .font(egui::FontId::proportional(18.0))
                        .desired_width(f32::INFINITY),
                )
                .accessible_name(lang.pick("Deck owner", "デッキの持ち主"))
                .changed();
        });
        if typed {
            // The name and owner are part of the deck.
            self.checked = None;
        }
        let total: u32 = self.counts.values().map(|n| u32::from(*n)).sum();
        let height = touch_height(ui, 48.0);
        section(
            ui,
            &lang.pick(
                format!("{total} cards in the deck"),
                format!("デッキ {total} 枚"),
            ),
            |ui| {
                ScrollArea::vertical()
                    .id_salt("deck-editor-deck")
                    .max_height(180.0)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        let rows: Vec<(String, u16)> =
                            self.counts.iter().map(|(k, v)| (k.clone(), *v)).collect();
                        for (id, copies) in rows {
                            let name = self
                                .catalogue
                                .card(&id)
                                .map_or(id.clone(), |c| c.name(lang.code()).to_owned());
                            ui.horizontal(|ui| {
                                let minus = ui
                                    .add(
                                        Button::new(RichText::new("−").size(24.0))
                                            .min_size(Vec2::new(48.0, height)),
                                    )
                                    .accessible_name(format!(
                                        "{} {name} ({id})",
                                        lang.pick("Remove one", "1枚減らす")
                                    ));
                                if minus.clicked() {
                                    self.set_copies(&id, copies - 1);
                                }
                                ui.label(RichText::new(format!("×{copies}")).size(20.0).strong());
                                let plus = ui
                                    .add(
                                        Button::new(RichText::new("+").size(24.0))
                                            .min_size(Vec2::new(48.0, height)),
                                    )
                                    .accessible_name(format!(
                                        "{} {name} ({id})",
                                        lang.pick("Add one more", "1枚増やす")
                                    ));
                                if plus.clicked() {
                                    self.set_copies(&id, copies.saturating_add(1));
                                }
                                ui.add(
                                    egui::Label::new(
                                        RichText::new(format!("{id}  {name}")).size(16.0),
                                    )
                                    .truncate(),
                                );
                            });
                        }
                    });
            },
        );
        let name_missing = self.name.trim().is_empty() || self.owner.trim().is_empty();
        let checked = self.checked().clone();
        let legal = match &checked {
            Ok((_, v)) if v.is_empty() && total > 0 => {
                ui.label(
                    RichText::new(lang.pick(
                        "The deck keeps every construction rule.",
                        "デッキは構築ルールをすべて満たしています。",
                    ))
                    .size(16.0),
                );
                true
            }
            Ok((_, violations)) => {
                for v in violations {
                    let sentence = v.sentence_in(lang == Lang::Ja);
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!("× {sentence}"))
                                .size(16.0)
                                .color(WARN),
                        )
                        .wrap(),
                    )
                    .accessible_name(format!("{}: {sentence}", v.rule));
                }
                false
            }
            Err(why) => {
                ui.label(RichText::new(why).size(16.0).color(WARN));
                false
            }
        };
        if name_missing {
            ui.label(
                RichText::new(lang.pick(
                    "Give the deck a name and an owner to save it.",
                    "保存するにはデッキ名と持ち主を入れてください。",
                ))
                .size(15.0)
                .weak(),
            );
        }
        let deck = checked.ok().map(|(d, _)| d);
        ui.horizontal_wrapped(|ui| {
            let can_save = legal && !name_missing;
            let save = ui
                .add_enabled(
                    can_save,
                    Button::new(
                        RichText::new(lang.pick("Save as registered deck", "登録デッキとして保存"))
                            .size(18.0),
                    )
                    .min_size(Vec2::new(200.0, height)),
                )
                .accessible_name(lang.pick("Save as registered deck", "登録デッキとして保存"));
            if save.clicked()
                && let Some(d) = &deck
            {
                action = Some(EditorAction::Save(d.clone()));
            }
            let export = ui
                .add_enabled(
                    !name_missing && total > 0,
                    Button::new(
                        RichText::new(lang.pick("Export deck file", "デッキファイルに書き出す"))
                            .size(18.0),
                    )
                    .min_size(Vec2::new(200.0, height)),
                )
                .accessible_name(lang.pick("Export deck file", "デッキファイルに書き出す"));
            if export.clicked()
                && let Some(d) = &deck
            {
                action = Some(EditorAction::Export(d.clone()));
            }
        });
        if let Some((bad, text)) = &self.message {
            let text = RichText::new(text).size(16.0);
            ui.add(egui::Label::new(if *bad { text.color(WARN) } else { text }).wrap());
        }
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::core::GameId;

    #[test]
    fn the_deck_follows_the_copies_and_its_broken_rules_are_listed_live() {
        let cat = Catalogue::builtin(GameId::Jaken).unwrap();
        let mut editor = DeckEditor::new(cat.clone(), "Aki");
        editor.name = "Mine".into();
        editor.set_copies("JD01", 3);
        let (deck, violations) = editor.checked().clone().unwrap();
        assert_eq!(deck.main.len(), 3);
        assert!(
            violations.iter().any(|v| v.rule == "jaken.deck-size"),
            "{violations:?}"
        );
        assert!(
            violations.iter().any(|v| v.rule == "jaken.deck-copies"),
            "{violations:?}"
        );
        // A ready-made deck is legal; the editor keeps it so.
        let lantern = Deck::from_list(&cat, "lantern", "Aki").unwrap();
        let mut editor = DeckEditor::new(cat, "Aki");
        editor.name.clone_from(&lantern.name);
        for c in lantern.copies() {
            let n = editor.copies(&c.card);
            editor.set_copies(&c.card, n + 1);
        }
        let (deck, violations) = editor.checked().clone().unwrap();
        assert!(violations.is_empty(), "{violations:?}");
        assert_eq!(deck.copies().count(), lantern.copies().count());
        editor.set_copies("NOPE", 1);
        assert_eq!(editor.copies("NOPE"), 0, "only cards of the set");
    }

    #[test]
    fn junk_ken_extra_cards_go_to_the_extra_deck() {
        let cat = Catalogue::builtin(GameId::JunkKen).unwrap();
        let list = cat.decks[0].clone();
        let mut editor = DeckEditor::new(cat.clone(), "Aki");
        editor.name = "Rush".into();
        for id in &list.cards {
            let n = editor.copies(id);
            editor.set_copies(id, n + 1);
        }
        let (deck, violations) = editor.checked().clone().unwrap();
        assert!(violations.is_empty(), "{violations:?}");
        assert!(!deck.extra.is_empty());
    }
}
