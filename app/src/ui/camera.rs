//! The camera on the table screen: its status in plain words, cards seen on the mat turned
//! into moves (at once where the phase makes them unambiguous, with one tap where several
//! moves fit), and warnings that never stop the match.
//!
//! A card seen before the match reaches the step it belongs to (the players were quicker than
//! the screen) waits: after every change of the match the waiting cards are looked at again,
//! so the reveal is taken as soon as it is legal. A card that leaves the mat stops waiting.

use super::i18n::Lang;
use super::widgets::WARN;
use crate::vision::{VisionService, VisionStatus};
use cards::matches::{Action, AnyMatch};
use cards::sightings::{Proposal, Sighting, propose};
use cards::tags::{Scanned, scan};
use egui::{Button, RichText, Ui, Vec2};
use hardware::vision::tracker::{EventKind, TrackEvent};
use serde_json::Value;
use std::collections::VecDeque;

/// Notes kept on screen.
const NOTES: usize = 3;
/// Sightings kept waiting for their step at most.
const WAITING: usize = 32;

/// A card on the mat not yet taken as a move.
#[derive(Clone, Debug)]
struct Waiting {
    payload: String,
    sighting: Sighting,
}

/// Several moves fit a card: the players pick one.
#[derive(Clone, Debug)]
struct Question {
    payload: String,
    sighting: Sighting,
    actions: Vec<Action>,
}

/// What a tap in the camera panel asks for.
pub(crate) enum CameraTap {
    /// Submit this move (a pick among several).
    Submit(Value),
    /// The seen card is not a move.
    Dismiss,
}

/// The camera's part of the table screen.
#[derive(Default)]
pub(crate) struct CameraDesk {
    service: Option<VisionService>,
    waiting: Vec<Waiting>,
    question: Option<Question>,
    notes: VecDeque<(bool, String)>,
    /// The match length when the waiting cards were last looked at.
    looked_at: Option<usize>,
}

impl CameraDesk {
    /// A desk watching through `service`.
    pub(crate) fn watching(service: VisionService) -> CameraDesk {
        CameraDesk {
            service: Some(service),
            ..CameraDesk::default()
        }
    }

    fn note(&mut self, warn: bool, text: String) {
        if self.notes.back().is_some_and(|(_, t)| *t == text) {
            return;
        }
        self.notes.push_back((warn, text));
        while self.notes.len() > NOTES {
            self.notes.pop_front();
        }
    }

    /// Takes the camera's events; returns the next move to apply, if one is unambiguous now.
    /// Call again after applying it (the match changed): it returns `None` when nothing more
    /// is to be done.
    pub(crate) fn next_move(&mut self, game: &dyn AnyMatch) -> Option<Value> {
        let events = self.service.as_mut().map(VisionService::poll);
        for e in events.unwrap_or_default() {
            self.take(e, game);
        }
        if self.looked_at == Some(game.len()) {
            return None;
        }
        self.looked_at = Some(game.len());
        let mut i = 0;
        while i < self.waiting.len() {
            let w = &self.waiting[i];
            match propose(game, &w.sighting) {
                Proposal::Apply(action) => {
                    let w = self.waiting.remove(i);
                    self.note(false, format!("{}: {}", w.sighting.card, action.label));
                    // Looked at again after this move is applied.
                    self.looked_at = None;
                    return Some(action.input);
                }
                Proposal::Confirm(actions) => {
                    if self.question.is_none() {
                        let w = self.waiting.remove(i);
                        self.question = Some(Question {
                            payload: w.payload,
                            sighting: w.sighting,
                            actions,
                        });
                        continue;
                    }
                    i += 1;
                }
                Proposal::NoMove(_) => i += 1,
            }
        }
        // A question whose moves are no longer legal goes away.
        if let Some(q) = &self.question
            && !matches!(propose(game, &q.sighting), Proposal::Confirm(_))
        {
            self.question = None;
        }
        None
    }

    fn take(&mut self, e: TrackEvent, game: &dyn AnyMatch) {
        let card = e.payload.as_deref().and_then(|p| match scan(p) {
            Ok(Scanned::Card(tag)) if tag.game == game.game() => Some(tag),
            _ => None,
        });
        match e.event {
            EventKind::Seen | EventKind::Moved => {
                let (Some(tag), Some(payload)) = (card, e.payload.clone()) else {
                    return;
                };
                self.forget(&payload);
                let Some(zone) = e.zone.clone() else {
                    return;
                };
                let sighting = Sighting {
                    card: tag.card,
                    seat: e.seat,
                    zone,
                    owner: e.owner.clone(),
                };
                if let Proposal::NoMove(why) = propose(game, &sighting)
                    && why.contains("lies on")
                {
                    self.note(true, why);
                    return;
                }
                self.waiting.push(Waiting { payload, sighting });
                if self.waiting.len() > WAITING {
                    self.waiting.remove(0);
                }
                self.looked_at = None;
            }
            EventKind::Gone => {
                if let Some(p) = &e.payload {
                    self.forget(p);
                }
            }
            EventKind::Rotated => {}
            EventKind::Conflict => {
                let places: Vec<String> = e
                    .places
                    .iter()
                    .map(|p| p.zone.clone().unwrap_or_else(|| "off the zones".into()))
                    .collect();
                self.note(
                    true,
                    format!(
                        "one copy seen in {} places at once ({}): {} — check the table",
                        places.len(),
                        places.join(", "),
                        e.payload.unwrap_or_default()
                    ),
                );
            }
            EventKind::MatLost => self.note(
                true,
                format!(
                    "mat corners not seen ({}): cards are not tracked until they are",
                    e.missing.join(", ")
                ),
            ),
            EventKind::MatFound => self.note(false, "mat found".into()),
        }
    }

    fn forget(&mut self, payload: &str) {
        self.waiting.retain(|w| w.payload != payload);
        if self.question.as_ref().is_some_and(|q| q.payload == payload) {
            self.question = None;
        }
    }

    /// A warning in the panel.
    pub(crate) fn warn(&mut self, text: String) {
        self.note(true, text);
    }

    /// Clears the question after the players answered it.
    pub(crate) fn answered(&mut self) {
        self.question = None;
    }

    /// The camera's status, its question and its notes.
    pub(crate) fn panel(&mut self, ui: &mut Ui, lang: Lang) -> Option<CameraTap> {
        let (warn, status) = match self.service.as_ref().map(VisionService::status) {
            None => (
                false,
                lang.pick(
                    "none: cards are entered by tapping (set `camera` in the config file to use one)",
                    "なし: カードはタップで入力します(カメラは設定ファイルの camera で指定)",
                )
                .to_owned(),
            ),
            Some(VisionStatus::Starting) => {
                (false, lang.pick("starting…", "起動中…").to_owned())
            }
            Some(VisionStatus::Watching { mat: true }) => {
                (false, lang.pick("watching the mat", "マットを認識中").to_owned())
            }
            Some(VisionStatus::Watching { mat: false }) => (
                true,
                lang.pick(
                    "the mat's corner markers are not in view",
                    "マットの四隅のマーカーが見えません",
                )
                .to_owned(),
            ),
            Some(VisionStatus::Lost { en, ja }) => (
                true,
                format!(
                    "{} — {}",
                    lang.pick(
                        "camera lost: enter moves by hand; it is picked up again when it returns",
                        "カメラが切断されました。手で入力してください(戻れば自動で再接続します)",
                    ),
                    lang.pick(en, ja)
                ),
            ),
            Some(VisionStatus::Ended) => {
                (false, lang.pick("recording ended", "録画の再生が終わりました").to_owned())
            }
        };
        let mut tap = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(lang.pick("Camera", "カメラ"))
                    .size(20.0)
                    .strong(),
            );
            let text = RichText::new(status).size(15.0);
            let text = if warn {
                text.color(WARN).strong()
            } else {
                text.weak()
            };
            ui.add(egui::Label::new(text).wrap());
        });
        if let Some(q) = &self.question {
            ui.label(
                RichText::new(format!(
                    "{} {} — {}",
                    q.sighting.card,
                    q.sighting.zone,
                    lang.pick("which move?", "どの手?")
                ))
                .size(17.0)
                .strong(),
            );
            ui.horizontal_wrapped(|ui| {
                for a in &q.actions {
                    if ui
                        .add(
                            Button::new(RichText::new(&a.label).size(17.0))
                                .min_size(Vec2::new(0.0, 40.0)),
                        )
                        .clicked()
                    {
                        tap = Some(CameraTap::Submit(a.input.clone()));
                    }
                }
                if ui
                    .add(
                        Button::new(
                            RichText::new(lang.pick("Not a move", "手ではない")).size(17.0),
                        )
                        .min_size(Vec2::new(0.0, 40.0)),
                    )
                    .clicked()
                {
                    tap = Some(CameraTap::Dismiss);
                }
            });
        }
        for (warn, text) in &self.notes {
            let t = RichText::new(text).size(14.0);
            ui.add(egui::Label::new(if *warn { t.color(WARN) } else { t.weak() }).wrap());
        }
        tap
    }
}
