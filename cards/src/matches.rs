//! The match layer: inputs, policy, undo, free rolls, and the fold that makes a match its log.
//!
//! Every input — a move, a die, a manual adjustment, an undo — becomes an [`Entry`]. A move that
//! breaks a rule is refused with the rule's id and sentence unless it carries an override reason,
//! in which case it is applied and the broken rules are kept with the entry. `Undo` is an entry
//! too: it takes back the latest entry still in effect, which stays visible in the log.
//!
//! Dice that arrive late and dice that never arrive are inputs too, with their times given as
//! data (the core reads no clock): a [`Input::LateRoll`] says where in the log it was thrown
//! (the log's length then), and never answers a prompt opened after that unless the table
//! chose that prompt for it; [`Input::DiceLost`] records throws a device knows it lost, so the
//! log says why the players threw again. Neither needs a game's help.
//!
//! The caller persists an input *between* [`Match::prepare`] and [`Match::commit`], so nothing
//! changes state before it is durable:
//!
//! ```
//! use cards::{catalogue::Catalogue, games::jaken::{Jaken, Move}, matches::{Input, Match}};
//! let cat = Catalogue::jaken_demo().unwrap();
//! let header = cards::games::jaken::demo_header(&cat, ["Aki", "Ben"], ["lantern", "gale"]).unwrap();
//! let mut m = Match::<Jaken>::new(header, &cat).unwrap();
//! let input = Input::Move { mv: Move::FirstParent { player: 0 }, override_reason: None };
//! let prepared = m.prepare(&input).unwrap();
//! // … write `prepared.json()` to the store here …
//! m.commit(prepared);
//! assert_eq!(m.context().leader, Some(0));
//! ```

use crate::catalogue::Catalogue;
use crate::core::{
    GameId, Impossible, MatchCtx, Outcome, Prompt, PromptKind, Roll, Seat, Tracker, TrackerId,
    Violation,
};
use crate::game::{Game, MatchHeader, SetupError};
use serde::{Deserialize, Serialize};
use std::any::Any;

/// One input to a match, as it is logged: `{"input": "move" | "roll" | "adjust" | "undo", …}`.
///
/// Reading goes through a flat record ([`InputRecord`]) rather than serde's internally tagged
/// enum, which would first copy every entry into a buffer: replaying a long log is mostly this.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "input", rename_all = "kebab-case")]
pub enum Input<M> {
    /// A move at the table.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: M,
        /// Present when the players apply a move that breaks a rule on purpose.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        override_reason: Option<String>,
    },
    /// A die from any source.
    Roll {
        /// The die.
        roll: Roll,
    },
    /// A manual correction of a tracked number.
    Adjust {
        /// Which number.
        tracker: TrackerId,
        /// Its new value.
        value: i32,
        /// Why, in the players' words.
        reason: String,
    },
    /// Takes back the latest entry still in effect.
    Undo {
        /// Why, optionally.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A die that reached the table more than a few seconds after it was thrown (a dice tower
    /// that was unplugged, a link that was down). It never answers a prompt opened after it
    /// was thrown, unless the table chose that prompt for it.
    LateRoll {
        /// The die.
        roll: Roll,
        /// The log held this many entries when the die was thrown: a prompt opened by entry
        /// `thrown_at` or a later one was not open yet.
        thrown_at: u64,
        /// How long after its throw it arrived, in milliseconds (for the log).
        late_ms: u64,
        /// What the table chose it for; absent: the oldest prompt it fits that was already
        /// open when it was thrown, if one still is, else nothing (a free roll).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer: Option<LateAnswer>,
    },
    /// Dice a device knows were thrown but will never deliver (a dice tower that restarted,
    /// or whose memory overflowed): logged so the log says which throws are missing. It
    /// changes nothing in the game (the players throw again) and is not taken back by undo.
    DiceLost {
        /// The device, as roll sources name it (`7ab1e51de0000001`).
        device: String,
        /// The first lost sequence number.
        first: u64,
        /// The last; absent: an unknown number from `first` on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last: Option<u64>,
        /// Why, in words.
        reason: String,
    },
}

/// What the table decided a late die is for (see [`Input::LateRoll`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LateAnswer {
    /// Nothing: it is logged as a free roll.
    Free,
    /// This open die prompt, whenever it opened.
    Prompt(String),
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum InputKind {
    Move,
    Roll,
    Adjust,
    Undo,
    LateRoll,
    DiceLost,
}

/// The stored shape of an [`Input`], read field by field.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InputRecord<M> {
    input: InputKind,
    #[serde(rename = "move")]
    mv: Option<M>,
    override_reason: Option<String>,
    roll: Option<Roll>,
    tracker: Option<TrackerId>,
    value: Option<i32>,
    reason: Option<String>,
    thrown_at: Option<u64>,
    late_ms: Option<u64>,
    answer: Option<LateAnswer>,
    device: Option<String>,
    first: Option<u64>,
    last: Option<u64>,
}

impl<'de, M: Deserialize<'de>> Deserialize<'de> for Input<M> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let r = InputRecord::<M>::deserialize(deserializer)?;
        Ok(match r.input {
            InputKind::Move => Input::Move {
                mv: r.mv.ok_or_else(|| D::Error::missing_field("move"))?,
                override_reason: r.override_reason,
            },
            InputKind::Roll => Input::Roll {
                roll: r.roll.ok_or_else(|| D::Error::missing_field("roll"))?,
            },
            InputKind::Adjust => Input::Adjust {
                tracker: r
                    .tracker
                    .ok_or_else(|| D::Error::missing_field("tracker"))?,
                value: r.value.ok_or_else(|| D::Error::missing_field("value"))?,
                reason: r.reason.ok_or_else(|| D::Error::missing_field("reason"))?,
            },
            InputKind::Undo => Input::Undo { reason: r.reason },
            InputKind::LateRoll => Input::LateRoll {
                roll: r.roll.ok_or_else(|| D::Error::missing_field("roll"))?,
                thrown_at: r
                    .thrown_at
                    .ok_or_else(|| D::Error::missing_field("thrown_at"))?,
                late_ms: r
                    .late_ms
                    .ok_or_else(|| D::Error::missing_field("late_ms"))?,
                answer: r.answer,
            },
            InputKind::DiceLost => Input::DiceLost {
                device: r.device.ok_or_else(|| D::Error::missing_field("device"))?,
                first: r.first.ok_or_else(|| D::Error::missing_field("first"))?,
                last: r.last,
                reason: r.reason.ok_or_else(|| D::Error::missing_field("reason"))?,
            },
        })
    }
}

/// Why an input was not accepted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Rejection {
    /// The move breaks rules; it can be applied with an override reason.
    #[error("refused: {}", .violations.iter().map(|v| format!("[{}] {}", v.rule, v.sentence)).collect::<Vec<_>>().join("; "))]
    Refused {
        /// The broken rules.
        violations: Vec<Violation>,
    },
    /// The input cannot be applied at all.
    #[error("impossible: {0}")]
    Impossible(#[from] Impossible),
    /// The input is not valid for this game (bad JSON, unknown move).
    #[error("not an input of this game: {0}")]
    Malformed(String),
}

/// The most characters of a JSON error a [`Rejection::Malformed`] repeats (serde's messages quote
/// the offending value, which may be huge).
const MAX_MALFORMED_CHARS: usize = 300;

/// A JSON error as a rejection, its text capped.
fn malformed(e: serde_json::Error) -> Rejection {
    Rejection::Malformed(crate::core::clip_text(&e.to_string(), MAX_MALFORMED_CHARS))
}

/// A stored log could not be replayed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The match could not be set up from its header.
    #[error("cannot set the match up: {0}")]
    Setup(#[from] SetupError),
    /// An entry was not accepted.
    #[error("entry {seq} cannot be replayed: {rejection}")]
    Entry {
        /// Its sequence number.
        seq: u64,
        /// Why.
        rejection: Rejection,
    },
    /// The header is not valid JSON of a match header.
    #[error("the match header is unreadable: {0}")]
    Header(String),
}

/// What an entry did, for the log.
#[derive(Clone, Debug, PartialEq)]
pub enum EntryEffect {
    /// A move applied without breaking any rule.
    Applied,
    /// A move applied although it breaks these rules (the override reason is in the input).
    Overridden(Vec<Violation>),
    /// A die that answered the prompt with this id.
    Fulfilled(String),
    /// A die with no open prompt to answer.
    FreeRoll,
    /// A manual adjustment.
    Adjusted,
    /// An undo of the entry with this sequence number.
    Undid(u64),
    /// Dice a device lost, recorded (see [`Input::DiceLost`]).
    DiceLost,
}

/// How an entry's log sentence is made. Moves are described when they are made (the words
/// depend on the state then); dice, adjustments and undos are written from their input when the
/// log is shown, so replaying a long log formats almost nothing.
#[derive(Clone, Debug, PartialEq)]
enum EntryText {
    /// Written when the entry was made.
    Fixed(String),
    /// A die that answered no prompt.
    FreeRoll,
    /// A manual adjustment: the number's label and its value before.
    Adjust {
        label: std::borrow::Cow<'static, str>,
        old: i32,
    },
    /// An undo: its target's sentence.
    Undo,
    /// A late die that answered no prompt.
    LateFree,
    /// Lost dice.
    DiceLost,
}

/// One entry of the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<G: Game> {
    /// 0-based position in the log.
    pub seq: u64,
    /// The input as logged.
    pub input: Input<G::Move>,
    /// What it did.
    pub effect: EntryEffect,
    /// The events it caused (empty for free rolls and undos).
    events: Vec<G::Event>,
    /// The sentence shown in the log ([`Match::entry_text`]), or what is needed to write it.
    text: EntryText,
    /// The sequence number of the undo that took it back, if one did.
    pub undone_by: Option<u64>,
}

/// An input that passed the rules, ready to be persisted and then committed.
#[derive(Debug)]
pub struct Prepared<G: Game> {
    entry: Entry<G>,
}

impl<G: Game> Prepared<G> {
    /// The sequence number the entry will have.
    pub fn seq(&self) -> u64 {
        self.entry.seq
    }
    /// The input as JSON, exactly what the log stores.
    pub fn json(&self) -> Result<String, Rejection> {
        serde_json::to_string(&self.entry.input).map_err(malformed)
    }
    /// What the entry will do.
    pub fn effect(&self) -> &EntryEffect {
        &self.entry.effect
    }
}

const CHECKPOINT_EVERY: usize = 32;

/// A live match of game `G`.
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    header: MatchHeader,
    initial: G::State,
    state: G::State,
    entries: Vec<Entry<G>>,
    /// Indices of the entries in effect (moves, rolls, adjustments), in order.
    effective: Vec<usize>,
    /// (number of effective entries applied, state after them), every CHECKPOINT_EVERY entries
    /// that changed the state (free rolls change nothing and cost no checkpoint: a million of
    /// them keep one entry's memory each, not a state copy per 32).
    checkpoints: Vec<(usize, G::State)>,
    /// The die prompts open now, each with the sequence number of the entry after which it
    /// opened (`None`: open since the match was set up). Late dice need it.
    die_open: Vec<(String, Option<u64>)>,
    /// Entries with events applied since the latest checkpoint.
    since_checkpoint: usize,
}

impl<G: Game> Match<G> {
    /// Sets a match up from its header.
    pub fn new(header: MatchHeader, catalogue: &Catalogue) -> Result<Self, SetupError> {
        if header.game != G::ID {
            return Err(SetupError::WrongCatalogue {
                catalogue: header.catalogue.clone(),
                expected: header.game,
                found: G::ID,
            });
        }
        if catalogue.game != G::ID {
            return Err(SetupError::WrongCatalogue {
                catalogue: catalogue.set.id.clone(),
                expected: G::ID,
                found: catalogue.game,
            });
        }
        let rules = Self::rules_of(&header)?;
        let initial = G::setup(&header.players, &rules, catalogue)?;
        let die_open = G::die_prompts(&initial)
            .into_iter()
            .map(|p| (p.id, None))
            .collect();
        Ok(Match {
            header,
            state: initial.clone(),
            initial,
            entries: Vec::new(),
            effective: Vec::new(),
            checkpoints: Vec::new(),
            die_open,
            since_checkpoint: 0,
        })
    }

    /// Reads the house rules of a header, filling defaults.
    pub fn rules_of(header: &MatchHeader) -> Result<G::Rules, SetupError> {
        if header.rules.is_null() {
            return Ok(G::Rules::default());
        }
        serde_json::from_value(header.rules.clone()).map_err(|e| SetupError::Rules(e.to_string()))
    }

    /// Rebuilds a match from its header and logged inputs.
    pub fn replay(
        header: MatchHeader,
        catalogue: &Catalogue,
        inputs: impl IntoIterator<Item = Input<G::Move>>,
    ) -> Result<Self, ReplayError> {
        let mut m = Match::new(header, catalogue)?;
        for input in inputs {
            let seq = m.entries.len() as u64;
            let prepared = m
                .prepare_owned(input)
                .map_err(|rejection| ReplayError::Entry { seq, rejection })?;
            m.commit(prepared);
        }
        Ok(m)
    }

    /// The header the match was set up from.
    pub fn header(&self) -> &MatchHeader {
        &self.header
    }

    /// The game state now.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// Every entry, undone ones included.
    pub fn entries(&self) -> &[Entry<G>] {
        &self.entries
    }

    /// True when an earlier die of the same throw (the run of rolls just before, in effect)
    /// answered a prompt.
    fn throw_answered(&self, roll: &Roll) -> bool {
        let Some(throw) = roll.throw else {
            return false;
        };
        let same_source =
            |r: &Roll| std::mem::discriminant(&r.source) == std::mem::discriminant(&roll.source);
        self.effective
            .iter()
            .rev()
            .filter_map(|&i| self.entries.get(i))
            .map_while(|e| match &e.input {
                Input::Roll { roll: r } | Input::LateRoll { roll: r, .. }
                    if r.throw == Some(throw) && same_source(r) =>
                {
                    Some(&e.effect)
                }
                _ => None,
            })
            .any(|effect| matches!(effect, EntryEffect::Fulfilled(_)))
    }

    /// Whether the open die prompt `id` was already open when the log held `entries`
    /// entries.
    fn die_prompt_open_at(&self, id: &str, entries: u64) -> bool {
        self.die_open
            .iter()
            .any(|(open, since)| open == id && since.is_none_or(|s| s < entries))
    }

    /// Notes the die prompts open after entry `seq` (new ones opened by it).
    fn track_die_prompts(&mut self, seq: u64) {
        let now: Vec<String> = G::die_prompts(&self.state)
            .into_iter()
            .map(|p| p.id)
            .collect();
        self.die_open.retain(|(id, _)| now.contains(id));
        for id in now {
            if !self.die_open.iter().any(|(open, _)| *open == id) {
                self.die_open.push((id, Some(seq)));
            }
        }
    }

    /// The log sentence of entry `index` ("" for an index past the end).
    pub fn entry_text(&self, index: usize) -> String {
        let Some(e) = self.entries.get(index) else {
            return String::new();
        };
        match (&e.text, &e.input) {
            (EntryText::Fixed(t), _) => t.clone(),
            (EntryText::FreeRoll, Input::Roll { roll }) => {
                format!(
                    "free roll: d{} = {} ({})",
                    roll.sides, roll.value, roll.source
                )
            }
            (
                EntryText::Adjust { label, old },
                Input::Adjust {
                    tracker,
                    value,
                    reason,
                },
            ) => {
                let who = tracker
                    .player
                    .and_then(|p| self.header.players.get(p))
                    .map(|p| format!("{}'s ", p.name))
                    .unwrap_or_default();
                format!("adjust {who}{label}: {old} → {value} ({reason})")
            }
            (EntryText::LateFree, Input::LateRoll { roll, late_ms, .. }) => format!(
                "late free roll: d{} = {} ({}, arrived {} after it was thrown)",
                roll.sides,
                roll.value,
                roll.source,
                late_text(*late_ms)
            ),
            (
                EntryText::DiceLost,
                Input::DiceLost {
                    device,
                    first,
                    last,
                    reason,
                },
            ) => match last {
                Some(last) if last == first => {
                    format!("dice lost: {device} #{first} never arrived ({reason}): throw again")
                }
                Some(last) => format!(
                    "dice lost: {device} #{first} to #{last} never arrived ({reason}): throw again"
                ),
                None => format!(
                    "dice lost: {device} lost an unknown number of dice from #{first} on \
                     ({reason}): throw again any die that did not show"
                ),
            },
            (EntryText::Undo, Input::Undo { reason }) => {
                let target = match e.effect {
                    EntryEffect::Undid(seq) => usize::try_from(seq).unwrap_or(usize::MAX),
                    _ => usize::MAX,
                };
                let why = reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                format!("undo #{target}: {}{why}", self.entry_text(target))
            }
            _ => String::new(),
        }
    }

    /// The violation of a move made after the end, naming the result.
    fn over_violation(&self, outcome: &Outcome) -> Violation {
        let names = self.player_names();
        // The game's reason is English only (the window tells it in Japanese on the result
        // screen): the Japanese sentence names the result without it.
        let ja = match outcome {
            Outcome::Win { winner, .. } => format!(
                "対戦は終了しています（{} の勝ち）。続けるには最後の記録を取り消してください。",
                names.get(*winner).map_or("?", String::as_str)
            ),
            Outcome::Draw { .. } => {
                "対戦は終了しています（引き分け）。続けるには最後の記録を取り消してください。"
                    .to_owned()
            }
        };
        Violation::new(
            "match.over",
            format!(
                "The match is over ({}); undo the last entry to go on playing.",
                outcome_sentence_named(outcome, &names)
            ),
            "The match ends when its result is decided: no move follows the end.",
        )
        .ja(ja)
    }

    /// The players' names, by seat.
    fn player_names(&self) -> Vec<String> {
        self.header.players.iter().map(|p| p.name.clone()).collect()
    }

    /// Players, turn, phase, active player and prompts.
    pub fn context(&self) -> MatchCtx {
        G::context(&self.state)
    }

    /// The result, once the match is over.
    pub fn outcome(&self) -> Option<Outcome> {
        G::outcome(&self.state)
    }

    /// Every tracked number.
    pub fn trackers(&self) -> Vec<Tracker> {
        G::trackers(&self.state)
    }

    /// The offered moves that break a rule now (the players may still apply one on purpose,
    /// with a reason), with their descriptions.
    pub fn refused_moves(&self) -> Vec<(G::Move, String)> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        G::candidate_moves(&self.state)
            .into_iter()
            .filter(|mv| matches!(G::decide(&self.state, mv), Ok(d) if !d.violations.is_empty()))
            .map(|mv| {
                let text = G::describe(&self.state, &mv);
                (mv, text)
            })
            .collect()
    }

    /// Moves as the UI's actions (JSON inputs with the acting player).
    fn to_actions(&self, moves: Vec<(G::Move, String)>) -> Vec<Action> {
        let players = self.context().players.len();
        moves
            .into_iter()
            .filter_map(|(mv, label)| {
                let input = Input::Move {
                    mv,
                    override_reason: None,
                };
                serde_json::to_value(&input).ok().map(|v| Action {
                    player: v
                        .pointer("/move/player")
                        .and_then(serde_json::Value::as_u64)
                        .and_then(|p| usize::try_from(p).ok())
                        .filter(|p| *p < players),
                    label,
                    input: v,
                })
            })
            .collect()
    }

    /// The moves that break no rule now, with their descriptions.
    pub fn legal_moves(&self) -> Vec<(G::Move, String)> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        G::candidate_moves(&self.state)
            .into_iter()
            .filter(|mv| matches!(G::decide(&self.state, mv), Ok(d) if d.violations.is_empty()))
            .map(|mv| {
                let text = G::describe(&self.state, &mv);
                (mv, text)
            })
            .collect()
    }

    /// Checks an input against the rules without changing anything.
    pub fn prepare(&self, input: &Input<G::Move>) -> Result<Prepared<G>, Rejection> {
        self.prepare_owned(input.clone())
    }

    /// [`Match::prepare`] for an input the caller no longer needs (no copy is made).
    pub fn prepare_owned(&self, input: Input<G::Move>) -> Result<Prepared<G>, Rejection> {
        let seq = self.entries.len() as u64;
        let (effect, events, text) = match &input {
            Input::Move {
                mv,
                override_reason,
            } => {
                // A move after the end is physically possible (the cards are still on the
                // table): it breaks the rule that the match is over, and the table may go on
                // with an override reason (or undo the last entry).
                let over = self.outcome().map(|outcome| self.over_violation(&outcome));
                let mut decision = match G::decide(&self.state, mv) {
                    Ok(d) => d,
                    Err(_) if override_reason.is_none() && over.is_some() => {
                        return Err(Rejection::Refused {
                            violations: over.into_iter().collect(),
                        });
                    }
                    Err(e) => return Err(e.into()),
                };
                if let Some(v) = over {
                    decision.violations.insert(0, v);
                }
                let text = G::describe(&self.state, mv);
                if decision.violations.is_empty() {
                    (
                        EntryEffect::Applied,
                        decision.events,
                        EntryText::Fixed(text),
                    )
                } else {
                    match override_reason.as_deref().map(str::trim) {
                        Some(reason) if !reason.is_empty() => (
                            EntryEffect::Overridden(decision.violations),
                            decision.events,
                            EntryText::Fixed(format!("{text} — override: {reason}")),
                        ),
                        _ => {
                            return Err(Rejection::Refused {
                                violations: decision.violations,
                            });
                        }
                    }
                }
            }
            Input::Roll { roll } => {
                if roll.sides == 0 || roll.value == 0 || roll.value > roll.sides {
                    return Err(Impossible::new(format!(
                        "a d{} cannot show {}",
                        roll.sides, roll.value
                    ))
                    .into());
                }
                let open = if self.throw_answered(roll) {
                    Vec::new() // this throw already answered a prompt: no spill into the next
                } else {
                    G::die_prompts(&self.state)
                };
                let prompt = open.iter().find(|p| {
                    matches!(p.kind, PromptKind::Die { sides } if sides == roll.sides)
                        && match (p.player, roll.seat) {
                            (Some(a), Some(b)) => a == b,
                            _ => true,
                        }
                });
                match prompt {
                    Some(p) => {
                        let events = G::fulfil(&self.state, p, roll)?;
                        (
                            EntryEffect::Fulfilled(p.id.clone()),
                            events,
                            EntryText::Fixed(format!(
                                "d{} = {} ({}) for: {}",
                                roll.sides, roll.value, roll.source, p.text
                            )),
                        )
                    }
                    None => (EntryEffect::FreeRoll, Vec::new(), EntryText::FreeRoll),
                }
            }
            Input::Adjust {
                tracker,
                value,
                reason,
            } => {
                if reason.trim().is_empty() {
                    return Err(Impossible::new("a manual adjustment needs a reason").into());
                }
                let known = G::trackers(&self.state);
                let Some(t) = known.iter().find(|t| &t.id == tracker) else {
                    return Err(Impossible::new(format!(
                        "there is no tracked number `{tracker}` now"
                    ))
                    .into());
                };
                if *value < t.min || *value > t.max {
                    return Err(Impossible::new(format!(
                        "{} must stay within {}..={}, not {value}",
                        t.label, t.min, t.max
                    ))
                    .into());
                }
                let events = G::adjust(&self.state, tracker, *value)?;
                (
                    EntryEffect::Adjusted,
                    events,
                    EntryText::Adjust {
                        label: t.label.clone(),
                        old: t.value,
                    },
                )
            }
            Input::LateRoll {
                roll,
                thrown_at,
                late_ms,
                answer,
            } => {
                if roll.sides == 0 || roll.value == 0 || roll.value > roll.sides {
                    return Err(Impossible::new(format!(
                        "a d{} cannot show {}",
                        roll.sides, roll.value
                    ))
                    .into());
                }
                let fits = |p: &Prompt| {
                    matches!(p.kind, PromptKind::Die { sides } if sides == roll.sides)
                        && match (p.player, roll.seat) {
                            (Some(a), Some(b)) => a == b,
                            _ => true,
                        }
                };
                let chosen = match answer {
                    Some(LateAnswer::Free) => None,
                    // The table's choice: it may be newer than the die, or a second answer of
                    // its throw; the table knows what the die was thrown for.
                    Some(LateAnswer::Prompt(id)) => {
                        let open = G::die_prompts(&self.state);
                        match open.into_iter().find(|p| &p.id == id) {
                            Some(p) if fits(&p) => Some(p),
                            Some(p) => {
                                return Err(Impossible::new(format!(
                                    "a d{} cannot answer \"{}\"",
                                    roll.sides, p.text
                                ))
                                .into());
                            }
                            None => {
                                return Err(Impossible::new(format!(
                                    "there is no open request `{id}` for this die now"
                                ))
                                .into());
                            }
                        }
                    }
                    None if self.throw_answered(roll) => None,
                    None => G::die_prompts(&self.state)
                        .into_iter()
                        .find(|p| fits(p) && self.die_prompt_open_at(&p.id, *thrown_at)),
                };
                match chosen {
                    Some(p) => {
                        let events = G::fulfil(&self.state, &p, roll)?;
                        (
                            EntryEffect::Fulfilled(p.id.clone()),
                            events,
                            EntryText::Fixed(format!(
                                "d{} = {} ({}, arrived {} after it was thrown) for: {}",
                                roll.sides,
                                roll.value,
                                roll.source,
                                late_text(*late_ms),
                                p.text
                            )),
                        )
                    }
                    None => (EntryEffect::FreeRoll, Vec::new(), EntryText::LateFree),
                }
            }
            Input::DiceLost {
                device,
                first,
                last,
                reason,
            } => {
                if device.trim().is_empty() || reason.trim().is_empty() {
                    return Err(Impossible::new("lost dice need a device and a reason").into());
                }
                if last.is_some_and(|l| l < *first) {
                    return Err(Impossible::new(format!(
                        "lost dice #{first} to #{}: the range is backwards",
                        last.unwrap_or(0)
                    ))
                    .into());
                }
                (EntryEffect::DiceLost, Vec::new(), EntryText::DiceLost)
            }
            Input::Undo { reason } => {
                let Some(&target) = self.effective.last() else {
                    return Err(Impossible::new("there is nothing to undo").into());
                };
                let _ = reason;
                (
                    EntryEffect::Undid(self.entries[target].seq),
                    Vec::new(),
                    EntryText::Undo,
                )
            }
        };
        Ok(Prepared {
            entry: Entry {
                seq,
                input,
                effect,
                events,
                text,
                undone_by: None,
            },
        })
    }

    /// Applies a prepared input. Call it only after the input is durable.
    ///
    /// A `Prepared` made before another commit is stale; it is re-checked and, if it no longer
    /// passes, dropped (returns `false`).
    pub fn commit(&mut self, prepared: Prepared<G>) -> bool {
        let prepared = if prepared.entry.seq == self.entries.len() as u64 {
            prepared
        } else {
            match self.prepare(&prepared.entry.input) {
                Ok(p) => p,
                Err(_) => return false,
            }
        };
        let entry = prepared.entry;
        let index = self.entries.len();
        match entry.effect {
            EntryEffect::Undid(_) => {
                if let Some(target) = self.effective.pop() {
                    self.entries[target].undone_by = Some(entry.seq);
                    self.rebuild();
                    // A prompt the undo opened again counts as opened by the undo.
                    self.track_die_prompts(entry.seq);
                }
            }
            // A record of the device's, not a change of the game: not taken back by undo.
            EntryEffect::DiceLost => {}
            _ => {
                for event in &entry.events {
                    G::apply(&mut self.state, event);
                }
                self.effective.push(index);
                if !entry.events.is_empty() {
                    self.since_checkpoint += 1;
                    if self.since_checkpoint >= CHECKPOINT_EVERY {
                        self.checkpoints
                            .push((self.effective.len(), self.state.clone()));
                        self.since_checkpoint = 0;
                    }
                }
                if !entry.events.is_empty() {
                    self.track_die_prompts(entry.seq);
                }
            }
        }
        self.entries.push(entry);
        true
    }

    /// Recomputes the state from the latest checkpoint after an undo.
    fn rebuild(&mut self) {
        let n = self.effective.len();
        while self.checkpoints.last().is_some_and(|(len, _)| *len > n) {
            self.checkpoints.pop();
        }
        let (start, mut state) = match self.checkpoints.last() {
            Some((len, s)) => (*len, s.clone()),
            None => (0, self.initial.clone()),
        };
        let mut since = 0;
        for &i in &self.effective[start..] {
            let events = &self.entries[i].events;
            since += usize::from(!events.is_empty());
            for event in events {
                G::apply(&mut state, event);
            }
        }
        self.state = state;
        self.since_checkpoint = since;
    }
}

/// "18 s", "2 min 5 s", "0.4 s": how late a die was, for the log.
fn late_text(ms: u64) -> String {
    let s = ms / 1000;
    if ms < 1000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else if s < 120 {
        format!("{s} s")
    } else if s < 7200 {
        format!("{} min {} s", s / 60, s % 60)
    } else {
        format!("{} h {} min", s / 3600, s / 60 % 60)
    }
}

/// A one-sentence description of an outcome, naming the winner by seat ("seat 0 wins: …"); use
/// [`outcome_sentence_named`] wherever the players' names are known.
pub fn outcome_sentence(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => format!("seat {winner} wins: {reason}"),
        Outcome::Draw { reason } => format!("draw: {reason}"),
    }
}

/// A one-sentence description of an outcome naming the winner ("Aki wins: …"), `players` by seat.
pub fn outcome_sentence_named(outcome: &Outcome, players: &[String]) -> String {
    match outcome {
        Outcome::Win { winner, reason } => match players.get(*winner) {
            Some(name) => format!("{name} wins: {reason}"),
            None => outcome_sentence(outcome),
        },
        Outcome::Draw { reason } => format!("draw: {reason}"),
    }
}

/// A legal action offered to the UI, as JSON input.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// The player who takes it, if one does.
    pub player: Option<Seat>,
    /// The button's text.
    pub label: String,
    /// The input to submit (JSON of [`Input`]).
    pub input: serde_json::Value,
}

/// One line of the log, for the UI's timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// Sequence number.
    pub seq: u64,
    /// What happened.
    pub text: String,
    /// Taken back by a later undo.
    pub undone: bool,
    /// Broken rules, for an overridden move.
    pub overridden: Vec<Violation>,
}

/// An input checked and serialized, ready for the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedInput {
    /// Sequence number the entry will get.
    pub seq: u64,
    /// Exactly what the store keeps.
    pub json: String,
}

/// A match of any game, for the app and the CLI.
pub trait AnyMatch: Send {
    /// The game.
    fn game(&self) -> GameId;
    /// The header the match was set up from.
    fn header(&self) -> &MatchHeader;
    /// Checks an input given as JSON.
    fn prepare_json(&self, input: &serde_json::Value) -> Result<PreparedInput, Rejection>;
    /// Applies an input given as JSON (as stored). Used after persisting and when replaying.
    fn commit_json(&mut self, json: &str) -> Result<(), Rejection>;
    /// Players, turn, phase, active player and prompts.
    fn context(&self) -> MatchCtx;
    /// Every tracked number.
    fn trackers(&self) -> Vec<Tracker>;
    /// The result, once the match is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The moves legal now, as inputs.
    fn actions(&self) -> Vec<Action>;
    /// The offered moves that break a rule now, as inputs: the players may apply one on purpose
    /// with `"override_reason"` (the UI shows them apart, to be confirmed as overrides).
    fn refused_actions(&self) -> Vec<Action>;
    /// The log.
    fn log(&self) -> Vec<LogLine>;
    /// Makes room for `additional` more entries (a replay knows how many are coming).
    fn reserve(&mut self, additional: usize);
    /// Number of entries.
    fn len(&self) -> usize;
    /// True before the first entry.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The game state as JSON (for `--json` and tests).
    fn state_json(&self) -> serde_json::Value;
    /// Downcasting to the concrete `Match<G>`, for game panels.
    fn as_any(&self) -> &dyn Any;
}

impl<G: Game> AnyMatch for Match<G> {
    fn game(&self) -> GameId {
        G::ID
    }
    fn header(&self) -> &MatchHeader {
        &self.header
    }
    fn prepare_json(&self, input: &serde_json::Value) -> Result<PreparedInput, Rejection> {
        let input: Input<G::Move> = serde_json::from_value(input.clone()).map_err(malformed)?;
        let p = self.prepare_owned(input)?;
        Ok(PreparedInput {
            seq: p.seq(),
            json: p.json()?,
        })
    }
    fn commit_json(&mut self, json: &str) -> Result<(), Rejection> {
        let input: Input<G::Move> = serde_json::from_str(json).map_err(malformed)?;
        let p = self.prepare_owned(input)?;
        self.commit(p);
        Ok(())
    }
    fn context(&self) -> MatchCtx {
        Match::context(self)
    }
    fn trackers(&self) -> Vec<Tracker> {
        Match::trackers(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Match::outcome(self)
    }
    fn actions(&self) -> Vec<Action> {
        self.to_actions(self.legal_moves())
    }
    fn refused_actions(&self) -> Vec<Action> {
        self.to_actions(self.refused_moves())
    }
    fn log(&self) -> Vec<LogLine> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| LogLine {
                seq: e.seq,
                text: self.entry_text(i),
                undone: e.undone_by.is_some(),
                overridden: match &e.effect {
                    EntryEffect::Overridden(v) => v.clone(),
                    _ => Vec::new(),
                },
            })
            .collect()
    }
    fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional);
        self.effective.reserve(additional);
    }
    fn len(&self) -> usize {
        self.entries.len()
    }
    fn state_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.state).unwrap_or(serde_json::Value::Null)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Sets up a match of the header's game.
pub fn new_match(
    header: MatchHeader,
    catalogue: &Catalogue,
) -> Result<Box<dyn AnyMatch>, SetupError> {
    (header.game.descriptor().new_match)(header, catalogue)
}

/// Sets up a match of game `G` behind the object-safe [`AnyMatch`]: what a game's descriptor
/// gives as its match constructor.
pub fn new_boxed<G: Game>(
    header: MatchHeader,
    catalogue: &Catalogue,
) -> Result<Box<dyn AnyMatch>, SetupError> {
    Ok(Box::new(Match::<G>::new(header, catalogue)?))
}

/// Rebuilds a match of any game from its header and stored inputs (JSON texts, in order).
pub fn replay_json<'a>(
    header: MatchHeader,
    catalogue: &Catalogue,
    inputs: impl IntoIterator<Item = &'a str>,
) -> Result<Box<dyn AnyMatch>, ReplayError> {
    let mut m = new_match(header, catalogue)?;
    for (seq, json) in inputs.into_iter().enumerate() {
        m.commit_json(json)
            .map_err(|rejection| ReplayError::Entry {
                seq: seq as u64,
                rejection,
            })?;
    }
    Ok(m)
}

#[cfg(test)]
mod dice_tests {
    //! The match layer's dice routing, with a test game that only asks for d6s.
    use super::*;
    use crate::core::DieSource;
    use crate::testing::{Ask, DiceAsker, asker_match, empty_catalogue};

    fn new_match() -> Match<DiceAsker> {
        asker_match().unwrap()
    }

    fn put(m: &mut Match<DiceAsker>, input: Input<Ask>) -> EntryEffect {
        let p = m.prepare(&input).unwrap();
        let effect = p.effect().clone();
        assert!(m.commit(p));
        effect
    }

    fn die(value: u8, source: DieSource, throw: Option<u64>) -> Input<Ask> {
        Input::Roll {
            roll: Roll {
                sides: 6,
                value,
                source,
                seat: None,
                throw,
            },
        }
    }

    #[test]
    fn a_throw_answers_one_prompt_and_its_other_dice_are_free_rolls() {
        // Given two open requests for 1d6,
        let mut m = new_match();
        put(
            &mut m,
            Input::Move {
                mv: Ask("hp-a".into()),
                override_reason: None,
            },
        );
        put(
            &mut m,
            Input::Move {
                mv: Ask("hp-b".into()),
                override_reason: None,
            },
        );
        // when one throw brings two dice,
        let first = put(&mut m, die(4, DieSource::Typed, Some(7)));
        let second = put(&mut m, die(2, DieSource::Typed, Some(7)));
        // then the first answers the oldest request and the second is a free roll,
        assert_eq!(first, EntryEffect::Fulfilled("hp-a".into()));
        assert_eq!(second, EntryEffect::FreeRoll);
        assert_eq!(m.state().open, vec!["hp-b".to_owned()]);
        // and the next throw answers the next request.
        assert_eq!(
            put(&mut m, die(5, DieSource::Virtual, Some(8))),
            EntryEffect::Fulfilled("hp-b".into())
        );
        assert_eq!(
            m.state().got,
            vec![("hp-a".to_owned(), 4), ("hp-b".to_owned(), 5)]
        );
        // Replaying the log gives the same routing.
        let inputs: Vec<Input<Ask>> = m.entries().iter().map(|e| e.input.clone()).collect();
        let replayed =
            Match::<DiceAsker>::replay(m.header().clone(), &empty_catalogue(), inputs).unwrap();
        assert_eq!(replayed.state(), m.state());
    }

    #[test]
    fn dice_without_a_throw_each_answer_the_next_request() {
        let mut m = new_match();
        put(
            &mut m,
            Input::Move {
                mv: Ask("a".into()),
                override_reason: None,
            },
        );
        put(
            &mut m,
            Input::Move {
                mv: Ask("b".into()),
                override_reason: None,
            },
        );
        assert_eq!(
            put(&mut m, die(1, DieSource::Script, None)),
            EntryEffect::Fulfilled("a".into())
        );
        assert_eq!(
            put(&mut m, die(2, DieSource::Script, None)),
            EntryEffect::Fulfilled("b".into())
        );
        // With nothing asked, a die is a free roll, logged with its source.
        assert_eq!(
            put(&mut m, die(3, DieSource::Virtual, None)),
            EntryEffect::FreeRoll
        );
        assert_eq!(m.entry_text(4), "free roll: d6 = 3 (virtual)");
    }

    #[test]
    fn undoing_the_answering_die_lets_the_throw_answer_again() {
        let mut m = new_match();
        put(
            &mut m,
            Input::Move {
                mv: Ask("a".into()),
                override_reason: None,
            },
        );
        put(&mut m, die(6, DieSource::Typed, Some(1)));
        // A mis-typed die is taken back while the prompt would be open again …
        put(
            &mut m,
            Input::Undo {
                reason: Some("typed 6, it was a 5".into()),
            },
        );
        assert_eq!(m.state().open, vec!["a".to_owned()]);
        // … and the corrected die answers it.
        assert_eq!(
            put(&mut m, die(5, DieSource::Typed, Some(2))),
            EntryEffect::Fulfilled("a".into())
        );
        assert_eq!(m.state().got, vec![("a".to_owned(), 5)]);
    }

    fn ask(id: &str) -> Input<Ask> {
        Input::Move {
            mv: Ask(id.into()),
            override_reason: None,
        }
    }

    fn tower_die(value: u8, seq: u64) -> Roll {
        Roll {
            sides: 6,
            value,
            source: DieSource::Tower {
                device: "7ab1e51de0000001".into(),
                seq,
            },
            seat: None,
            throw: Some(seq),
        }
    }

    fn late(value: u8, seq: u64, thrown_at: u64, answer: Option<LateAnswer>) -> Input<Ask> {
        Input::LateRoll {
            roll: tower_die(value, seq),
            thrown_at,
            late_ms: 18_000,
            answer,
        }
    }

    #[test]
    fn a_late_die_never_answers_a_prompt_opened_after_it_was_thrown() {
        // Given a request for 1d6 answered by hand while the tower was unplugged,
        let mut m = new_match();
        put(&mut m, ask("hp-a")); // entry 0
        // (the die thrown into the unplugged tower now: the log holds 1 entry)
        put(&mut m, die(4, DieSource::Typed, Some(1))); // entry 1 answers hp-a
        // and a newer request opened since,
        put(&mut m, ask("hp-b")); // entry 2
        // when the tower's die arrives late, it is a free roll, not hp-b's answer.
        assert_eq!(put(&mut m, late(6, 12, 1, None)), EntryEffect::FreeRoll);
        assert_eq!(m.state().open, vec!["hp-b".to_owned()]);
        assert_eq!(
            m.entry_text(3),
            "late free roll: d6 = 6 (tower 7ab1e51de0000001 #12, arrived 18 s after it was thrown)"
        );
        // A late die thrown while hp-b was open answers it.
        assert_eq!(
            put(&mut m, late(3, 13, 3, None)),
            EntryEffect::Fulfilled("hp-b".into())
        );
        assert_eq!(
            m.state().got,
            vec![("hp-a".to_owned(), 4), ("hp-b".to_owned(), 3)]
        );
        // Replaying the log routes the same way.
        let inputs: Vec<Input<Ask>> = m.entries().iter().map(|e| e.input.clone()).collect();
        let replayed =
            Match::<DiceAsker>::replay(m.header().clone(), &empty_catalogue(), inputs).unwrap();
        assert_eq!(replayed.state(), m.state());
    }

    #[test]
    fn the_table_chooses_what_a_late_die_is_for() {
        let mut m = new_match();
        put(&mut m, ask("old")); // open before the throw
        put(&mut m, ask("new")); // opened after it
        // Kept as a free roll, it answers nothing, not even the request open at its throw.
        assert_eq!(
            put(&mut m, late(2, 5, 1, Some(LateAnswer::Free))),
            EntryEffect::FreeRoll
        );
        // Chosen for the newer request, it answers it.
        assert_eq!(
            put(
                &mut m,
                late(5, 6, 1, Some(LateAnswer::Prompt("new".into())))
            ),
            EntryEffect::Fulfilled("new".into())
        );
        assert!(m.entry_text(3).starts_with(
            "d6 = 5 (tower 7ab1e51de0000001 #6, arrived 18 s after it was thrown) for: roll 1d6 for new"
        ));
        // A request that is not open, or a die that does not fit, cannot be chosen.
        let gone = m.prepare(&late(5, 7, 1, Some(LateAnswer::Prompt("new".into()))));
        assert!(
            matches!(&gone, Err(Rejection::Impossible(e)) if e.to_string().contains("no open request `new`")),
            "{gone:?}"
        );
        let mut d20 = late(5, 8, 1, Some(LateAnswer::Prompt("old".into())));
        if let Input::LateRoll { roll, .. } = &mut d20 {
            roll.sides = 20;
        }
        assert!(matches!(m.prepare(&d20), Err(Rejection::Impossible(_))));
        // The JSON the app logs goes through the object-safe layer.
        let json = serde_json::json!({"input": "late-roll", "roll": {"sides": 6, "value": 1,
            "source": {"kind": "typed"}}, "thrown_at": 0, "late_ms": 9000, "answer": {"prompt": "old"}});
        let any: &mut dyn AnyMatch = &mut m;
        let prepared = any.prepare_json(&json).unwrap();
        any.commit_json(&prepared.json).unwrap();
        assert!(m.state().open.is_empty());
    }

    #[test]
    fn a_prompt_opened_again_by_an_undo_is_newer_than_a_die_thrown_before_the_undo() {
        let mut m = new_match();
        put(&mut m, ask("a")); // 0
        put(&mut m, die(4, DieSource::Typed, Some(1))); // 1 answers a
        put(
            &mut m,
            Input::Undo {
                reason: Some("mistyped".into()),
            },
        ); // 2: a is open again
        // A die thrown before the undo (log of 2 entries) does not take it by itself.
        assert_eq!(put(&mut m, late(5, 1, 2, None)), EntryEffect::FreeRoll);
        // One thrown after it does.
        assert_eq!(
            put(&mut m, late(5, 2, 3, None)),
            EntryEffect::Fulfilled("a".into())
        );
    }

    #[test]
    fn lost_dice_are_logged_change_nothing_and_are_not_undone() {
        let mut m = new_match();
        put(&mut m, ask("a"));
        let lost = Input::DiceLost {
            device: "7ab1e51de0000001".into(),
            first: 6,
            last: Some(9),
            reason: "the tower restarted".into(),
        };
        assert_eq!(put(&mut m, lost), EntryEffect::DiceLost);
        assert_eq!(
            m.entry_text(1),
            "dice lost: 7ab1e51de0000001 #6 to #9 never arrived (the tower restarted): throw again"
        );
        let unknown = Input::DiceLost {
            device: "text".into(),
            first: 3,
            last: None,
            reason: "a damaged line".into(),
        };
        put(&mut m, unknown);
        assert!(
            m.entry_text(2)
                .contains("unknown number of dice from #3 on")
        );
        // Undo takes back the request, not the device's records.
        put(&mut m, Input::Undo { reason: None });
        assert!(m.state().open.is_empty());
        assert_eq!(m.entries()[1].undone_by, None);
        assert_eq!(m.entries()[0].undone_by, Some(3));
        let backwards = Input::DiceLost {
            device: "x".into(),
            first: 9,
            last: Some(6),
            reason: "r".into(),
        };
        assert!(matches!(
            m.prepare(&backwards),
            Err(Rejection::Impossible(_))
        ));
        // Through JSON, as stored.
        let any: &mut dyn AnyMatch = &mut m;
        let json = serde_json::json!({"input": "dice-lost", "device": "7ab1", "first": 1,
            "reason": "the tower restarted"});
        let p = any.prepare_json(&json).unwrap();
        assert!(p.json.contains("\"dice-lost\""));
        any.commit_json(&p.json).unwrap();
        assert_eq!(m.log().len(), 5);
    }
}
