//! Game-agnostic vocabulary: seats, rules and violations, prompts, dice, trackers and outcomes.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// The games Tableside knows (the five, and in this crate's own tests a toy sixth).
///
/// An id says which game; what the game *is* (its short id, tag letter, names, player counts,
/// catalogue loader, deck rules, match constructor, sightings) is its descriptor, which
/// [`GameId::descriptor`] finds in the one table of games (`cards/src/games/mod.rs`, which also
/// defines [`GameId::ALL`], [`GameId::as_str`] and [`GameId::parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameId {
    /// ジャケン (Jaken / JYAKEN).
    Jaken,
    /// JUNK-拳 (JUNK-KEN).
    JunkKen,
    /// ロックマンエグゼカードゲーム (Rockman EXE card game).
    RockmanExe,
    /// Space Junk.
    SpaceJunk,
    /// Yomi (second edition).
    Yomi,
    /// The toy game of this crate's own tests (`cards::testing::toy`); never in a build.
    #[cfg(test)]
    Toy,
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A player's seat: 0 is the first player entered, 1 the second, and so on.
pub type Seat = usize;

/// One rule of a game, as the app cites it when a move breaks it.
///
/// Anything a player could physically do at the table and the rules forbid is a violation: the
/// match layer refuses the move with it, and the table may apply the move anyway with an
/// override reason (logged with the violation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// Stable id, e.g. `jaken.summon-cost`.
    pub rule: String,
    /// The sentence in English, naming the actual cause, e.g. "A monster's summon cost must be
    /// at most the battle number: 鬼火王 costs 6, this is battle 1."
    pub sentence: String,
    /// The same sentence in Japanese (empty where none is written yet: [`Violation::sentence_in`]
    /// falls back to English).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sentence_ja: String,
    /// Where the rule is written: the rulebook's section and its own words, e.g.
    /// `❷ 召喚コスト「ターン数とコストの数字が同じか、ターン数よりコストの数字が小さい場合に召喚可能」`.
    pub reference: String,
}

impl Violation {
    /// Builds a violation from its id, its English sentence and the rulebook's words.
    pub fn new(rule: &str, sentence: impl Into<String>, reference: &str) -> Self {
        Violation {
            rule: rule.to_owned(),
            sentence: sentence.into(),
            sentence_ja: String::new(),
            reference: reference.to_owned(),
        }
    }

    /// The violation with its sentence in Japanese.
    #[must_use]
    pub fn ja(mut self, sentence_ja: impl Into<String>) -> Self {
        self.sentence_ja = sentence_ja.into();
        self
    }

    /// A move made at the wrong time: "{what} belongs to {when}; the match is at {now}.", and in
    /// Japanese "{what}は{when}に行います。いまは {now} です。" when both phrases have one
    /// (`ja` = [what, when, now]; an empty phrase leaves the Japanese out).
    pub fn wrong_phase(rule: &str, reference: &str, en: [&str; 3], ja: [&str; 3]) -> Self {
        let [what, when, now] = en;
        let v = Violation::new(
            rule,
            format!("{what} belongs to {when}; the match is at {now}."),
            reference,
        );
        match ja {
            [what, when, now] if !what.is_empty() && !when.is_empty() => {
                v.ja(format!("{what}は{when}に行います。いまは {now} です。"))
            }
            _ => v,
        }
    }

    /// The sentence in Japanese (`true`) or English; the English one where no Japanese exists.
    pub fn sentence_in(&self, japanese: bool) -> &str {
        if japanese && !self.sentence_ja.is_empty() {
            &self.sentence_ja
        } else {
            &self.sentence
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {} ({})", self.rule, self.sentence, self.reference)
    }
}

/// `text` cut to at most `max_chars` characters, with `…` and the full length in bytes when cut:
/// how error messages repeat what a user typed, so a megabyte of input is never echoed back.
pub fn clip_text(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// An input that cannot mean anything at this table: no such player, an unknown card, a card or
/// square that is not where the move takes it from, a malformed value. Everything a player could
/// physically do and the rules forbid is a [`Violation`] instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{reason}")]
pub struct Impossible {
    /// What is wrong, in a sentence (English).
    pub reason: String,
    /// The same sentence in Japanese (empty where none is written yet).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason_ja: String,
}

impl Impossible {
    /// Builds the error from a sentence.
    pub fn new(reason: impl Into<String>) -> Self {
        Impossible {
            reason: reason.into(),
            reason_ja: String::new(),
        }
    }

    /// The error with its sentence in Japanese.
    #[must_use]
    pub fn ja(mut self, reason_ja: impl Into<String>) -> Self {
        self.reason_ja = reason_ja.into();
        self
    }

    /// The sentence in Japanese (`true`) or English; the English one where no Japanese exists.
    pub fn reason_in(&self, japanese: bool) -> &str {
        if japanese && !self.reason_ja.is_empty() {
            &self.reason_ja
        } else {
            &self.reason
        }
    }
}

/// The rules' answer to a move: the events it causes and the rules it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<E> {
    /// The changes, in order.
    pub events: Vec<E>,
    /// Rules the move breaks; empty when the move is legal.
    pub violations: Vec<Violation>,
}

impl<E> Decision<E> {
    /// A legal move with these events.
    pub fn legal(events: Vec<E>) -> Self {
        Decision {
            events,
            violations: Vec::new(),
        }
    }
}

/// Where a die result came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum DieSource {
    /// A dice tower on a serial port.
    Tower {
        /// The tower's device id.
        device: String,
        /// The tower's sequence number for this roll.
        seq: u64,
    },
    /// Typed in by a player.
    Typed,
    /// Rolled by the app's virtual dice.
    Virtual,
    /// Read from a match script.
    Script,
}

impl fmt::Display for DieSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DieSource::Tower { device, seq } => write!(f, "tower {device} #{seq}"),
            DieSource::Typed => f.write_str("typed"),
            DieSource::Virtual => f.write_str("virtual"),
            DieSource::Script => f.write_str("script"),
        }
    }
}

/// One die result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    /// Number of faces (6 for a d6).
    pub sides: u8,
    /// The face shown, 1..=sides.
    pub value: u8,
    /// Where the result came from.
    pub source: DieSource,
    /// The seat that rolled, when the source knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// Dice thrown together (a typed `2d6 3 5`, a virtual 2d6) share a throw id, unique for
    /// their source within a match. A throw answers at most one prompt: its other dice are
    /// logged as free rolls, never as the next request's answer. `None`: a throw of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throw: Option<u64>,
}

/// What the table owes the app now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PromptKind {
    /// A die to roll.
    Die {
        /// Faces of the die.
        sides: u8,
    },
    /// A choice or action a player must make.
    Choice,
}

/// One open request to the table, e.g. "Aki: place a monster face down".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// Stable id within the current state (used to match dice to prompts).
    pub id: String,
    /// The player who owes it, if one does.
    pub player: Option<Seat>,
    /// What kind of answer is expected.
    pub kind: PromptKind,
    /// A sentence for the players.
    pub text: String,
}

/// Identifies one tracked number, e.g. player 1's SB.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackerId {
    /// The owner, or `None` for a number of the whole game (turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Seat>,
    /// The short name, e.g. `sb`, `turn`, `atk` (borrowed when it is the game's own literal, so
    /// listing the trackers allocates nothing).
    pub name: Cow<'static, str>,
}

impl TrackerId {
    /// A player's tracker.
    pub fn player(seat: Seat, name: &'static str) -> Self {
        TrackerId {
            player: Some(seat),
            name: Cow::Borrowed(name),
        }
    }
    /// A game-wide tracker.
    pub fn game(name: &'static str) -> Self {
        TrackerId {
            player: None,
            name: Cow::Borrowed(name),
        }
    }
    /// A tracker named at run time (from a script or the UI).
    pub fn named(player: Option<Seat>, name: impl Into<String>) -> Self {
        TrackerId {
            player,
            name: Cow::Owned(name.into()),
        }
    }
}

impl fmt::Display for TrackerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.player {
            Some(p) => write!(f, "{}[{}]", self.name, p),
            None => f.write_str(&self.name),
        }
    }
}

/// A number the table keeps, as the UI shows it and `Adjust` changes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tracker {
    /// Its id.
    pub id: TrackerId,
    /// Label for the players, e.g. "SB (魂玉)".
    pub label: Cow<'static, str>,
    /// Current value.
    pub value: i32,
    /// Lowest value a manual adjustment may set.
    pub min: i32,
    /// Highest value a manual adjustment may set.
    pub max: i32,
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Outcome {
    /// One player won.
    Win {
        /// The winner's seat.
        winner: Seat,
        /// Why, in a sentence.
        reason: String,
    },
    /// Nobody won.
    Draw {
        /// Why, in a sentence.
        reason: String,
    },
}

/// A phase of a game as the phase bar shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseView {
    /// Phase names in order, for the bar.
    pub phases: Vec<String>,
    /// Index of the current phase in `phases`.
    pub current: usize,
    /// The current step, in a few words ("P3 parent may declare a BG").
    pub step: String,
    /// What comes after the current step.
    pub next: String,
}

/// Game-agnostic context of a match: who plays, which turn, which phase, whose move, what is owed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchCtx {
    /// Player names by seat.
    pub players: Vec<String>,
    /// Turn (or battle, or round) number, from 1.
    pub turn: u32,
    /// Phase and step.
    pub phase: PhaseView,
    /// The player who acts now, if one player does.
    pub active: Option<Seat>,
    /// The seat of the parent / first player, where the game has one.
    pub leader: Option<Seat>,
    /// The open prompts, oldest first.
    pub prompts: Vec<Prompt>,
}

/// A hand-entered effect's non-zero changes, each as its label and signed value ("ATK +2"), in
/// the order given: the parts [`effect_summary`] joins.
pub fn signed_changes<T: std::fmt::Display + PartialEq + Default>(
    changes: &[(&str, &T)],
) -> Vec<String> {
    changes
        .iter()
        .filter(|(_, v)| **v != T::default())
        .map(|(label, v)| format!("{label} {v:+}"))
        .collect()
}

/// How a hand-entered effect reads in the log: its non-zero changes joined by commas ("no change"
/// when there are none), then the players' note after a dash.
pub fn effect_summary(parts: &[String], note: &str) -> String {
    let changes = if parts.is_empty() {
        "no change".to_owned()
    } else {
        parts.join(", ")
    };
    if note.is_empty() {
        changes
    } else {
        format!("{changes} — {note}")
    }
}

/// A list written as one string (`"0,0 1,0"` for squares, `"RX01,RX02"` for cards) or as a
/// JSON array.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum ListForm<T> {
    Text(String),
    Items(Vec<T>),
}

/// Card ids: `"JK01,JK02"` (commas or spaces between them) or a JSON array.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardList(pub Vec<String>);

impl Serialize for CardList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.join(","))
    }
}

impl<'de> Deserialize<'de> for CardList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(CardList(match ListForm::<String>::deserialize(d)? {
            ListForm::Items(v) => v,
            ListForm::Text(t) => t
                .split([',', ' '])
                .filter(|p| !p.trim().is_empty())
                .map(|p| p.trim().to_owned())
                .collect(),
        }))
    }
}
