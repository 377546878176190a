//! Match scripts: a plain-text, line-based record of a match that any game can read.
//!
//! The format is documented in `docs/match-script.md` and is kept stable. A script has a header
//! (`game`, `catalogue`, `player`, `rule`) and then one input or check per line:
//!
//! ```text
//! game jaken
//! player Aki deck=lantern
//! player Ben deck=gale
//! move first-parent player=Aki
//! refused jaken.summon-cost move reveal player=Aki card=JD08
//! adjust sb 12 player=Aki reason="recount after a spilled bowl"
//! roll d6 4 player=Ben source=typed
//! undo reason="mis-tap"
//! expect sb player=Aki 12
//! ```
//!
//! `move <type> key=value…` becomes the game's move `{"type": "<type>", "key": value, …}`;
//! numbers and `true`/`false` become JSON numbers and booleans, and the keys `player` and `winner`
//! take a player's name or seat. `override="reason"` on a move applies it although it breaks a rule.

use crate::catalogue::Catalogue;
use crate::core::{DieSource, GameId, Outcome, Roll, TrackerId};
use crate::game::{MatchHeader, PlayerConfig};
use crate::matches::{AnyMatch, Input, PreparedInput, Rejection, outcome_sentence_named};
use serde_json::{Map, Value};
use std::fmt;

/// A problem in a script, or a check that failed, at a line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct ScriptError {
    /// 1-based line.
    pub line: usize,
    /// What went wrong.
    pub kind: ScriptErrorKind,
}

/// What went wrong in a script.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptErrorKind {
    /// The line cannot be read.
    Syntax(String),
    /// The match refused the input.
    Rejected(Rejection),
    /// An `expect` or `refused` check failed.
    Check(String),
    /// The input could not be stored.
    Store(String),
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            ScriptErrorKind::Syntax(m) => write!(f, "{m}"),
            ScriptErrorKind::Rejected(Rejection::Refused { violations }) => {
                let parts: Vec<String> = violations
                    .iter()
                    .map(|v| format!("refused by rule {}: {}", v.rule, v.sentence))
                    .collect();
                write!(f, "{}", parts.join("; "))
            }
            ScriptErrorKind::Rejected(r) => write!(f, "{r}"),
            ScriptErrorKind::Check(m) => write!(f, "check failed: {m}"),
            ScriptErrorKind::Store(m) => write!(f, "could not store the input: {m}"),
        }
    }
}

/// A player line of the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptPlayer {
    /// The name.
    pub name: String,
    /// A deck id of the catalogue, or an explicit card list.
    pub deck: DeckRef,
}

/// Where a player's deck comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckRef {
    /// A ready-made deck of the catalogue.
    Named(String),
    /// Card ids, one per copy.
    Cards(Vec<String>),
    /// None yet: the player builds the deck in the match (JUNK-KEN's draft, `rule draft_pool=…`).
    Drafted,
}

/// The outcome a script expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectedOutcome {
    /// This seat wins.
    Winner(usize),
    /// A draw.
    Draw,
    /// The match is not over.
    None,
}

/// One line after the header.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// An input (JSON of [`Input`]).
    Input(Value),
    /// The input must be refused for this rule (and is not applied).
    Refused {
        /// The rule id expected.
        rule: String,
        /// The input.
        input: Value,
    },
    /// A tracked number must have this value.
    ExpectTracker {
        /// Which number.
        tracker: TrackerId,
        /// Its value.
        value: i32,
    },
    /// The outcome must be this.
    ExpectOutcome(ExpectedOutcome),
}

/// A parsed script.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// The game.
    pub game: GameId,
    /// The catalogue's set id, when the script names one.
    pub catalogue: Option<String>,
    /// Players by seat.
    pub players: Vec<ScriptPlayer>,
    /// House rules.
    pub rules: Map<String, Value>,
    /// Lines after the header, with their line numbers.
    pub steps: Vec<(usize, Step)>,
}

/// The longest line a script may have, in bytes (a 60-card `cards=` list is well under 1 KiB).
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// The most `player` lines a script may have (no game seats more than 6).
pub const MAX_PLAYERS: usize = 16;
/// The most characters of the script's own text an error message repeats.
pub const MAX_ECHO_CHARS: usize = 60;

/// `text` as an error message may repeat it: at most [`MAX_ECHO_CHARS`] characters, with `…` and
/// the full length when cut.
pub fn clip(text: &str) -> String {
    crate::core::clip_text(text, MAX_ECHO_CHARS)
}

fn syntax(line: usize, message: impl Into<String>) -> ScriptError {
    ScriptError {
        line,
        kind: ScriptErrorKind::Syntax(message.into()),
    }
}

/// Splits a line into words; double quotes group words and `\"` escapes a quote.
fn words(line: &str, n: usize) -> Result<Vec<String>, ScriptError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_quotes = false;
    let mut started = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if in_quotes => match chars.next() {
                Some(e) => cur.push(e),
                None => return Err(syntax(n, "a line cannot end in `\\`")),
            },
            '"' => {
                in_quotes = !in_quotes;
                started = true;
            }
            '#' if !in_quotes => break,
            c if c.is_whitespace() && !in_quotes => {
                if started {
                    out.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            c => {
                cur.push(c);
                started = true;
            }
        }
    }
    if in_quotes {
        return Err(syntax(n, "a quote is not closed"));
    }
    if started {
        out.push(cur);
    }
    Ok(out)
}

fn scalar(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return Value::from(i);
    }
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::String(text.to_owned()),
    }
}

fn split_kv(word: &str) -> Option<(&str, &str)> {
    let (k, v) = word.split_once('=')?;
    (!k.is_empty()).then_some((k, v))
}

impl Script {
    /// Parses a script.
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        let mut game = None;
        let mut catalogue = None;
        let mut players: Vec<ScriptPlayer> = Vec::new();
        let mut rules = Map::new();
        let mut steps = Vec::new();
        // A UTF-8 byte order mark (as some Windows editors write one) is not part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            if raw.len() > MAX_LINE_BYTES {
                return Err(syntax(
                    n,
                    format!(
                        "the line is {} bytes long; a script line may have at most {MAX_LINE_BYTES}",
                        raw.len()
                    ),
                ));
            }
            let w = words(raw, n)?;
            let Some(first) = w.first() else { continue };
            let header_done = !steps.is_empty();
            match first.as_str() {
                "game" | "catalogue" | "player" | "rule" if header_done => {
                    return Err(syntax(
                        n,
                        format!("`{first}` belongs to the header, before the first input"),
                    ));
                }
                "player" if players.len() >= MAX_PLAYERS => {
                    return Err(syntax(
                        n,
                        format!("a script may have at most {MAX_PLAYERS} players"),
                    ));
                }
                "game" => {
                    let id = w
                        .get(1)
                        .ok_or_else(|| syntax(n, "`game` needs a game id"))?;
                    game = Some(GameId::parse(id).ok_or_else(|| {
                        syntax(
                            n,
                            format!(
                                "unknown game `{}` (expected one of: {})",
                                clip(id),
                                GameId::ALL.map(GameId::as_str).join(", ")
                            ),
                        )
                    })?);
                }
                "catalogue" => {
                    catalogue = Some(
                        w.get(1)
                            .ok_or_else(|| syntax(n, "`catalogue` needs a set id"))?
                            .clone(),
                    )
                }
                "player" => {
                    let name = w
                        .get(1)
                        .ok_or_else(|| syntax(n, "`player` needs a name"))?
                        .clone();
                    if name.contains('=') {
                        return Err(syntax(n, "`player` needs a name before its deck"));
                    }
                    if players.iter().any(|p| p.name == name) {
                        return Err(syntax(n, format!("two players are called {}", clip(&name))));
                    }
                    let mut deck = None;
                    for word in &w[2..] {
                        match split_kv(word) {
                            Some(("deck", id)) => deck = Some(DeckRef::Named(id.to_owned())),
                            Some(("cards", list)) => {
                                deck = Some(DeckRef::Cards(
                                    list.split(',')
                                        .filter(|s| !s.is_empty())
                                        .map(str::to_owned)
                                        .collect(),
                                ))
                            }
                            _ => {
                                return Err(syntax(
                                    n,
                                    format!(
                                        "unknown player option `{}` (use deck=ID or cards=A,B,…)",
                                        clip(word)
                                    ),
                                ));
                            }
                        }
                    }
                    // Without a deck the player drafts one; the header checks the draft is there.
                    let deck = deck.unwrap_or(DeckRef::Drafted);
                    players.push(ScriptPlayer { name, deck });
                }
                "rule" => {
                    for word in &w[1..] {
                        let (k, v) = split_kv(word).ok_or_else(|| {
                            syntax(n, format!("`rule` takes key=value, not `{}`", clip(word)))
                        })?;
                        rules.insert(k.to_owned(), scalar(v));
                    }
                }
                _ => {
                    if game.is_none() {
                        return Err(syntax(n, "the script must start with `game <id>`"));
                    }
                    steps.push((n, Self::step(&w, n, &players)?));
                }
            }
        }
        let game = game.ok_or_else(|| syntax(1, "the script has no `game <id>` line"))?;
        Ok(Script {
            game,
            catalogue,
            players,
            rules,
            steps,
        })
    }

    fn seat(value: &str, players: &[ScriptPlayer], n: usize) -> Result<usize, ScriptError> {
        if let Some(i) = players.iter().position(|p| p.name == value) {
            return Ok(i);
        }
        match value.parse::<usize>() {
            Ok(i) if i < players.len() => Ok(i),
            _ => Err(syntax(
                n,
                format!(
                    "no player `{}` (players: {})",
                    clip(value),
                    players
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    fn step(w: &[String], n: usize, players: &[ScriptPlayer]) -> Result<Step, ScriptError> {
        let Some((first, rest)) = w.split_first() else {
            return Err(syntax(n, "an empty step"));
        };
        match first.as_str() {
            "move" => Ok(Step::Input(Self::move_input(rest, n, players)?)),
            "refused" => {
                let rule = rest
                    .first()
                    .ok_or_else(|| syntax(n, "`refused` needs a rule id and an input"))?
                    .clone();
                // Only an input may follow (never another `refused`): no recursion, so a line
                // of thousands of `refused` is one clean error, not a stack overflow.
                let input_words = &rest[1..];
                match input_words.first().map(String::as_str) {
                    Some("move" | "roll" | "adjust" | "undo") => {}
                    Some("refused") => {
                        return Err(syntax(
                            n,
                            "`refused <rule>` is followed by one input, not another `refused`",
                        ));
                    }
                    _ => {
                        return Err(syntax(
                            n,
                            "`refused <rule>` must be followed by an input (move, roll, adjust or undo)",
                        ));
                    }
                }
                let input = match Self::step(input_words, n, players)? {
                    Step::Input(v) => v,
                    _ => {
                        return Err(syntax(n, "`refused <rule>` must be followed by an input"));
                    }
                };
                Ok(Step::Refused { rule, input })
            }
            "roll" => {
                let die = rest
                    .first()
                    .ok_or_else(|| syntax(n, "`roll` needs a die, e.g. `roll d6 4`"))?;
                let sides: u8 = die
                    .strip_prefix('d')
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| {
                        syntax(
                            n,
                            format!("`{}` is not a die (write d6, d20, …)", clip(die)),
                        )
                    })?;
                let value: u8 = rest
                    .get(1)
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| syntax(n, "`roll` needs the face shown, e.g. `roll d6 4`"))?;
                let mut roll = Roll {
                    sides,
                    value,
                    source: DieSource::Script,
                    seat: None,
                    throw: None,
                };
                for word in &rest[2..] {
                    match split_kv(word) {
                        Some(("player", p)) => roll.seat = Some(Self::seat(p, players, n)?),
                        Some(("throw", t)) => {
                            roll.throw = Some(t.parse().map_err(|_| {
                                syntax(n, format!("throw=`{}` is not a number", clip(t)))
                            })?)
                        }
                        Some(("source", "typed")) => roll.source = DieSource::Typed,
                        Some(("source", "virtual")) => roll.source = DieSource::Virtual,
                        Some(("source", "script")) => roll.source = DieSource::Script,
                        Some(("source", tower)) if tower.starts_with("tower:") => {
                            let mut parts = tower.splitn(3, ':').skip(1);
                            let device = parts.next().unwrap_or_default().to_owned();
                            let seq =
                                parts.next().and_then(|s| s.parse().ok()).ok_or_else(|| {
                                    syntax(n, "write a tower source as source=tower:DEVICE:SEQ")
                                })?;
                            roll.source = DieSource::Tower { device, seq };
                        }
                        _ => {
                            return Err(syntax(n, format!("unknown roll option `{}`", clip(word))));
                        }
                    }
                }
                serde_json::to_value(Input::<Value>::Roll { roll })
                    .map(Step::Input)
                    .map_err(|e| syntax(n, e.to_string()))
            }
            "adjust" => {
                let name = rest.first().ok_or_else(|| {
                    syntax(
                        n,
                        "`adjust` needs a tracker, e.g. `adjust sb 12 player=Aki reason=\"…\"`",
                    )
                })?;
                let value: i32 = rest
                    .get(1)
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| syntax(n, "`adjust` needs the new value after the tracker"))?;
                let (player, reason) =
                    Self::options(&rest[2..], n, players, &["player", "reason"])?;
                let tracker = TrackerId::named(player, name.clone());
                let reason = reason.ok_or_else(|| syntax(n, "`adjust` needs reason=\"…\""))?;
                serde_json::to_value(Input::<Value>::Adjust {
                    tracker,
                    value,
                    reason,
                })
                .map(Step::Input)
                .map_err(|e| syntax(n, e.to_string()))
            }
            "undo" => {
                let (_, reason) = Self::options(rest, n, players, &["reason"])?;
                serde_json::to_value(Input::<Value>::Undo { reason })
                    .map(Step::Input)
                    .map_err(|e| syntax(n, e.to_string()))
            }
            "expect" => {
                let what = rest
                    .first()
                    .ok_or_else(|| syntax(n, "`expect` needs a tracker or `outcome`"))?;
                if what == "outcome" {
                    let o = match rest.get(1).map(String::as_str) {
                        Some("draw") => ExpectedOutcome::Draw,
                        Some("none") => ExpectedOutcome::None,
                        Some(w) => match split_kv(w) {
                            Some(("winner", p)) => {
                                ExpectedOutcome::Winner(Self::seat(p, players, n)?)
                            }
                            _ => {
                                return Err(syntax(
                                    n,
                                    "write `expect outcome winner=NAME`, `draw` or `none`",
                                ));
                            }
                        },
                        None => {
                            return Err(syntax(
                                n,
                                "write `expect outcome winner=NAME`, `draw` or `none`",
                            ));
                        }
                    };
                    return Ok(Step::ExpectOutcome(o));
                }
                let mut player = None;
                let mut value = None;
                for word in &rest[1..] {
                    match split_kv(word) {
                        Some(("player", p)) => player = Some(Self::seat(p, players, n)?),
                        None => {
                            value = Some(word.parse::<i32>().map_err(|_| {
                                syntax(n, format!("`{}` is not a number", clip(word)))
                            })?)
                        }
                        _ => {
                            return Err(syntax(
                                n,
                                format!("unknown expect option `{}`", clip(word)),
                            ));
                        }
                    }
                }
                Ok(Step::ExpectTracker {
                    tracker: TrackerId::named(player, what.clone()),
                    value: value.ok_or_else(|| syntax(n, "`expect` needs the expected value"))?,
                })
            }
            other => Err(syntax(
                n,
                format!(
                    "unknown line `{}` (expected move, refused, roll, adjust, undo or expect)",
                    clip(other)
                ),
            )),
        }
    }

    fn options(
        words: &[String],
        n: usize,
        players: &[ScriptPlayer],
        allowed: &[&str],
    ) -> Result<(Option<usize>, Option<String>), ScriptError> {
        let mut player = None;
        let mut reason = None;
        for word in words {
            match split_kv(word) {
                Some(("player", p)) if allowed.contains(&"player") => {
                    player = Some(Self::seat(p, players, n)?)
                }
                Some(("reason", r)) if allowed.contains(&"reason") => reason = Some(r.to_owned()),
                _ => return Err(syntax(n, format!("unknown option `{}`", clip(word)))),
            }
        }
        Ok((player, reason))
    }

    fn move_input(w: &[String], n: usize, players: &[ScriptPlayer]) -> Result<Value, ScriptError> {
        let kind = w
            .first()
            .ok_or_else(|| syntax(n, "`move` needs a move type, e.g. `move compare`"))?;
        let mut mv = Map::new();
        mv.insert("type".into(), Value::String(kind.clone()));
        let mut override_reason = None;
        for word in &w[1..] {
            let (k, v) = split_kv(word).ok_or_else(|| {
                syntax(
                    n,
                    format!("move options are key=value, not `{}`", clip(word)),
                )
            })?;
            match k {
                "override" => override_reason = Some(v.to_owned()),
                "player" | "winner" => {
                    mv.insert(k.to_owned(), Value::from(Self::seat(v, players, n)?));
                }
                // Another player named by a move (the target of an attack, whose graveyard):
                // their seat.
                "target" | "graveyard" if players.iter().any(|p| p.name == v) => {
                    mv.insert(k.to_owned(), Value::from(Self::seat(v, players, n)?));
                }
                _ => {
                    mv.insert(k.to_owned(), scalar(v));
                }
            }
        }
        let mut input = Map::new();
        input.insert("input".into(), Value::String("move".into()));
        input.insert("move".into(), Value::Object(mv));
        if let Some(r) = override_reason {
            input.insert("override_reason".into(), Value::String(r));
        }
        Ok(Value::Object(input))
    }

    /// The match header, with decks resolved against the catalogue.
    pub fn header(&self, catalogue: &Catalogue) -> Result<MatchHeader, ScriptError> {
        let mut players = Vec::new();
        for p in &self.players {
            let (deck_name, deck) = match &p.deck {
                DeckRef::Named(id) => {
                    let d = catalogue.deck(id).ok_or_else(|| {
                        syntax(
                            1,
                            format!(
                                "catalogue {} has no deck `{}` (decks: {})",
                                catalogue.set.id,
                                clip(id),
                                catalogue
                                    .decks
                                    .iter()
                                    .map(|d| d.id.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        )
                    })?;
                    (format!("{}/{}", catalogue.set.id, d.id), d.cards.clone())
                }
                DeckRef::Cards(cards) => ("(listed in the script)".to_owned(), cards.clone()),
                DeckRef::Drafted
                    if self.rules.contains_key("draft_pool")
                        || self.rules.contains_key("draft_carry") =>
                {
                    ("(built in the draft)".to_owned(), Vec::new())
                }
                DeckRef::Drafted => {
                    return Err(syntax(
                        1,
                        format!(
                            "player {} needs deck=ID or cards=A,B,… (only a JUNK-KEN draft, rule draft_pool=…, builds the decks in the match)",
                            clip(&p.name)
                        ),
                    ));
                }
            };
            players.push(PlayerConfig {
                name: p.name.clone(),
                deck_name,
                deck,
            });
        }
        Ok(MatchHeader {
            game: self.game,
            catalogue: catalogue.set.id.clone(),
            players,
            rules: if self.rules.is_empty() {
                Value::Null
            } else {
                Value::Object(self.rules.clone())
            },
        })
    }
}

/// What running one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepResult {
    /// An input was stored and applied.
    Applied(PreparedInput),
    /// A check passed (nothing stored).
    Checked,
}

/// Runs one step against a match. Inputs are handed to `persist` after the rules accept them and
/// before they change the match.
pub fn run_step(
    m: &mut dyn AnyMatch,
    line: usize,
    step: &Step,
    persist: &mut dyn FnMut(&PreparedInput) -> Result<(), String>,
) -> Result<StepResult, ScriptError> {
    let fail = |kind| ScriptError { line, kind };
    match step {
        Step::Input(v) => {
            let p = m
                .prepare_json(v)
                .map_err(|r| fail(ScriptErrorKind::Rejected(r)))?;
            persist(&p).map_err(|e| fail(ScriptErrorKind::Store(e)))?;
            m.commit_json(&p.json)
                .map_err(|r| fail(ScriptErrorKind::Rejected(r)))?;
            Ok(StepResult::Applied(p))
        }
        other => check_step(m, line, other),
    }
}

/// Runs a step that only reads the match (`refused`, `expect`); an input step is an error here.
pub fn check_step(m: &dyn AnyMatch, line: usize, step: &Step) -> Result<StepResult, ScriptError> {
    let fail = |kind| ScriptError { line, kind };
    match step {
        Step::Input(_) => Err(fail(ScriptErrorKind::Check(
            "an input cannot be run as a check".into(),
        ))),
        Step::Refused { rule, input } => match m.prepare_json(input) {
            Err(Rejection::Refused { violations })
                if violations.iter().any(|v| &v.rule == rule) =>
            {
                Ok(StepResult::Checked)
            }
            Err(other) => Err(fail(ScriptErrorKind::Check(format!(
                "expected a refusal by rule {}, got: {other}",
                clip(rule)
            )))),
            Ok(_) => Err(fail(ScriptErrorKind::Check(format!(
                "expected a refusal by rule {}, but the input is legal",
                clip(rule)
            )))),
        },
        Step::ExpectTracker { tracker, value } => {
            let trackers = m.trackers();
            let t = trackers.iter().find(|t| &t.id == tracker).ok_or_else(|| {
                fail(ScriptErrorKind::Check(format!(
                    "no tracked number `{}` now",
                    clip(&tracker.to_string())
                )))
            })?;
            if t.value == *value {
                Ok(StepResult::Checked)
            } else {
                Err(fail(ScriptErrorKind::Check(format!(
                    "{tracker} is {}, expected {value}",
                    t.value
                ))))
            }
        }
        Step::ExpectOutcome(expected) => {
            let got = m.outcome();
            let ok = match (expected, &got) {
                (ExpectedOutcome::None, None) => true,
                (ExpectedOutcome::Draw, Some(Outcome::Draw { .. })) => true,
                (ExpectedOutcome::Winner(s), Some(Outcome::Win { winner, .. })) => s == winner,
                _ => false,
            };
            if ok {
                Ok(StepResult::Checked)
            } else {
                let names: Vec<String> =
                    m.header().players.iter().map(|p| p.name.clone()).collect();
                let wanted = match expected {
                    ExpectedOutcome::Winner(s) => format!(
                        "{} to win",
                        names
                            .get(*s)
                            .map_or_else(|| format!("seat {s}"), Clone::clone)
                    ),
                    ExpectedOutcome::Draw => "a draw".to_owned(),
                    ExpectedOutcome::None => "the match not over".to_owned(),
                };
                Err(fail(ScriptErrorKind::Check(format!(
                    "expected {wanted}, the match says {}",
                    got.as_ref().map_or_else(
                        || "not over".to_owned(),
                        |o| outcome_sentence_named(o, &names)
                    )
                ))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_respect_quotes_and_comments() {
        assert_eq!(
            words(r#"adjust sb 3 reason="a \"big\" mistake" # note"#, 1).unwrap(),
            vec!["adjust", "sb", "3", "reason=a \"big\" mistake"]
        );
        assert!(
            words("undo reason=\"open", 4)
                .unwrap_err()
                .to_string()
                .starts_with("line 4")
        );
    }

    #[test]
    fn unknown_player_names_line() {
        let err = Script::parse(
            "game jaken\nplayer A deck=x\nplayer B deck=y\nmove first-parent player=Zed\n",
        )
        .unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.to_string().contains("Zed"));
    }

    #[test]
    fn header_after_inputs_is_refused() {
        let err = Script::parse("game jaken\nplayer A deck=x\nmove compare\nplayer B deck=y\n")
            .unwrap_err();
        assert_eq!(err.line, 4);
    }

    #[test]
    fn move_line_becomes_tagged_json() {
        let s = Script::parse("game jaken\nplayer A deck=x\nplayer B deck=y\nmove reveal player=B card=JD01 override=\"house rule\"\n").unwrap();
        assert_eq!(
            s.steps[0].1,
            Step::Input(
                serde_json::json!({"input": "move", "move": {"type": "reveal", "player": 1, "card": "JD01"}, "override_reason": "house rule"})
            )
        );
    }
}
