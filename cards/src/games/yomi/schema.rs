//! Reading Yomi cards from a catalogue. A card names its character, so the cards of different
//! characters are told apart; [`load`] (and [`demo`]) also check what a single card cannot: that
//! every card's character exists, and that every character has exactly one complete fixed deck.

use super::card::*;
use super::state::Yomi;
use crate::catalogue::DemoSet;
use crate::catalogue::{
    Card, CardData, Catalogue, CatalogueError, Common, Ctx, DeckList, RawCard, Span, load_cards,
    raw_card,
};
use crate::core::GameId;
use crate::game::Game;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The Yomi demo pair (two invented characters), embedded in the binary.
pub(crate) const DEMO: DemoSet = DemoSet {
    file: super::demo::FILE,
    text: super::demo::TOML,
};

/// The Yomi demo pair's text.
pub const DEMO_TOML: &str = DEMO.text;

/// The name the embedded demo file has in errors.
pub const DEMO_FILE: &str = super::demo::FILE;

/// Reads a catalogue of Yomi cards, with the checks across cards.
pub(crate) fn load_set(ctx: &Ctx<'_>) -> Result<Catalogue, CatalogueError> {
    load_cards::<RawYomiCard>(ctx, GameId::Yomi).and_then(|c| cross_check(ctx, c))
}

pub(super) const REF_DECK: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";
pub(super) const REF_CHARACTER: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";

/// Loads a Yomi catalogue, as [`Catalogue::load`] does (which checks what no single card can:
/// every card's character exists, a character has one card per rank and suit, and every
/// character has exactly one complete fixed deck), and refuses a catalogue of another game.
/// Errors name the file, line and field.
pub fn load(file: &str, text: &str) -> Result<Catalogue, CatalogueError> {
    let ctx = Ctx {
        file,
        text,
        doc: Default::default(),
    };
    let cat = Catalogue::load(file, text)?;
    if cat.game != Yomi::ID {
        return Err(ctx.err(
            ctx.field_offset(&(0..text.len()), "game"),
            Some("game"),
            format!("this is a {} catalogue, not a Yomi one", cat.game),
        ));
    }
    // `Catalogue::load` has run the cross-card checks of a Yomi set.
    Ok(cat)
}

/// The embedded demo pair (checked like [`load`]).
pub fn demo() -> Result<Catalogue, CatalogueError> {
    load(DEMO_FILE, DEMO_TOML)
}

// ------------------------------------------------------------------------------------------------
// Reading cards

/// A value given either alone or as a list.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub(super) fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A rank given as text (`"7"`, `"J"`) or as a number (`7`).
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum RawRank {
    Number(i64),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAbility {
    #[serde(default)]
    timing: Option<String>,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEnd {
    kind: String,
    #[serde(default)]
    name_ja: String,
    #[serde(default)]
    name_en: String,
    speed: Option<f64>,
    damage: Option<i64>,
    block_damage: Option<i64>,
    combo_points: Option<i64>,
    combo: Option<OneOrMany>,
    knockdown: Option<bool>,
    mix_up: Option<bool>,
    pump_damage: Option<i64>,
    pump_cost: Option<i64>,
    aces: Option<i64>,
    abilities: Option<Vec<RawAbility>>,
}

raw_card!(RawYomiCard {
    kind: String,
    character: Option<String>,
    hp: Option<i64>,
    combo_points: Option<i64>,
    hand_limit: Option<i64>,
    abilities: Option<Vec<RawAbility>>,
    rank: Option<RawRank>,
    suit: Option<String>,
    top: Option<RawEnd>,
    bottom: Option<RawEnd>,
});

impl RawCard for RawYomiCard {
    fn common(&self) -> Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        yomi_card(ctx, span, self).map(CardData::Yomi)
    }
}

/// True when `line` (trimmed) assigns `key`.
pub(super) fn assigns(line: &str, key: &str) -> bool {
    line.strip_prefix(key)
        .is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// Where `key` of the end `end` (`top` or `bottom`) of the card at `span` is written, whether the
/// end is a `[cards.top]` table, dotted keys (`top.speed = …`) or an inline table (`top = {…}`);
/// with `key` `None`, or when the key is not found, where the end starts (else the card's start).
pub(super) fn end_offset(ctx: &Ctx<'_>, span: &Span, end: &str, key: Option<&str>) -> usize {
    let body = ctx.text.get(span.start..).unwrap_or("");
    let mut pos = span.start;
    let mut in_end = false;
    let mut end_start = None;
    let dotted = key.map(|k| format!("{end}.{k}"));
    for (i, line) in body.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        let at = pos + (line.len() - trimmed.len());
        pos += line.len();
        if i > 0 && trimmed.starts_with("[[") {
            break;
        }
        if let Some(header) = trimmed.strip_prefix('[') {
            let name: String = header
                .split(']')
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            in_end = name == format!("cards.{end}");
            if in_end && end_start.is_none() {
                end_start = Some(at);
            }
            continue;
        }
        if in_end {
            if key.is_some_and(|k| assigns(trimmed, k)) {
                return at;
            }
        } else if dotted.as_deref().is_some_and(|d| assigns(trimmed, d)) {
            return at;
        } else if (assigns(trimmed, end) || trimmed.starts_with(&format!("{end}.")))
            && end_start.is_none()
        {
            end_start = Some(at);
        }
    }
    end_start.unwrap_or(span.start)
}

/// Where the quoted `value` is written at or after `from`, within the same card; else `from`.
pub(super) fn value_offset(ctx: &Ctx<'_>, from: usize, value: &str) -> usize {
    let rest = ctx.text.get(from..).unwrap_or("");
    let block_end = rest.find("\n[[").unwrap_or(rest.len());
    rest.get(..block_end)
        .and_then(|block| block.find(&format!("\"{value}\"")))
        .map_or(from, |i| from + i)
}

/// A whole number checked against its range, as the field's type.
pub(super) fn int<T: TryFrom<i64>>(
    ctx: &Ctx<'_>,
    at: usize,
    field: &str,
    value: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<T, CatalogueError> {
    let err = || {
        ctx.err(
            at,
            Some(field),
            format!(
                "{field} {value} is outside {}..={}",
                range.start(),
                range.end()
            ),
        )
    };
    if !range.contains(&value) {
        return Err(err());
    }
    T::try_from(value).map_err(|_| err())
}

pub(super) fn abilities(
    ctx: &Ctx<'_>,
    at: usize,
    field: &str,
    raw: &[RawAbility],
) -> Result<Vec<Ability>, CatalogueError> {
    raw.iter()
        .map(|a| {
            let timing = match a.timing.as_deref() {
                None => None,
                Some(t) => Some(Timing::parse(t).ok_or_else(|| {
                    ctx.err(
                        value_offset(ctx, at, t),
                        Some(field),
                        format!(
                            "unknown timing `{t}` (expected one of: {})",
                            Timing::ALL.map(Timing::as_str).join(", ")
                        ),
                    )
                })?),
            };
            if a.text.trim().is_empty() {
                return Err(ctx.err(at, Some(field), "an ability needs its text"));
            }
            Ok(Ability {
                timing,
                text: a.text.clone(),
            })
        })
        .collect()
}

pub(super) fn yomi_card(
    ctx: &Ctx<'_>,
    span: &Span,
    rc: &RawYomiCard,
) -> Result<YomiCard, CatalogueError> {
    let (id, kind) = (rc.id.as_str(), rc.kind.as_str());
    let at = |field: &str| ctx.field_offset(span, field);
    let forbid_end = |field: &str, value: &Option<RawEnd>| -> Result<(), CatalogueError> {
        if value.is_some() {
            Err(ctx.err(
                end_offset(ctx, span, field, None),
                Some(field),
                format!("card `{id}` is of kind `{kind}`, which has no `{field}`"),
            ))
        } else {
            Ok(())
        }
    };
    let character = |rc: &RawYomiCard| -> Result<String, CatalogueError> {
        ctx.need(span, id, kind, "character", &rc.character)?;
        let c = rc.character.clone().unwrap_or_default();
        if c.trim().is_empty() {
            return Err(ctx.field_err(
                span,
                "character",
                "`character` must name the id of this card's character card",
            ));
        }
        Ok(c)
    };
    match kind {
        "character" => {
            ctx.need(span, id, kind, "hp", &rc.hp)?;
            ctx.need(span, id, kind, "combo_points", &rc.combo_points)?;
            ctx.forbid(span, id, kind, "character", &rc.character)?;
            ctx.forbid(span, id, kind, "rank", &rc.rank)?;
            ctx.forbid(span, id, kind, "suit", &rc.suit)?;
            forbid_end("top", &rc.top)?;
            forbid_end("bottom", &rc.bottom)?;
            Ok(YomiCard::Character(YomiCharacter {
                hp: int(ctx, at("hp"), "hp", rc.hp.unwrap_or_default(), 1..=999)?,
                combo_points: int(
                    ctx,
                    at("combo_points"),
                    "combo_points",
                    rc.combo_points.unwrap_or_default(),
                    1..=20,
                )?,
                hand_limit: match rc.hand_limit {
                    Some(h) => int(ctx, at("hand_limit"), "hand_limit", h, 1..=54)?,
                    None => DEFAULT_HAND_LIMIT,
                },
                abilities: abilities(
                    ctx,
                    at("abilities"),
                    "abilities",
                    rc.abilities.as_deref().unwrap_or_default(),
                )?,
            }))
        }
        "move" => {
            let character = character(rc)?;
            ctx.need(span, id, kind, "rank", &rc.rank)?;
            ctx.need(span, id, kind, "suit", &rc.suit)?;
            ctx.need(span, id, kind, "top", &rc.top)?;
            ctx.need(span, id, kind, "bottom", &rc.bottom)?;
            forbid_card_fields(ctx, span, rc)?;
            let rank = match &rc.rank {
                Some(RawRank::Number(n)) => Rank::parse(&n.to_string()),
                Some(RawRank::Text(t)) => Rank::parse(t),
                None => None,
            }
            .ok_or_else(|| {
                let shown = match &rc.rank {
                    Some(RawRank::Number(n)) => n.to_string(),
                    Some(RawRank::Text(t)) => t.clone(),
                    None => String::new(),
                };
                ctx.field_err(
                    span,
                    "rank",
                    format!("unknown rank `{shown}` (expected 2 to 10, J, Q, K or A)"),
                )
            })?;
            let suit_text = rc.suit.as_deref().unwrap_or_default();
            let suit = Suit::parse(suit_text).ok_or_else(|| {
                ctx.field_err(
                    span,
                    "suit",
                    format!(
                        "unknown suit `{suit_text}` (expected spades, hearts, diamonds or clubs)"
                    ),
                )
            })?;
            let mut ends = Vec::with_capacity(2);
            for (name, raw) in [("top", &rc.top), ("bottom", &rc.bottom)] {
                if let Some(raw) = raw {
                    ends.push(move_end(ctx, span, id, name, raw, rank)?);
                }
            }
            let mut ends = ends.into_iter();
            match (ends.next(), ends.next()) {
                (Some(top), Some(bottom)) => Ok(YomiCard::Move(YomiMoveCard {
                    character,
                    rank,
                    suit,
                    top,
                    bottom,
                })),
                _ => Err(ctx.field_err(span, "kind", "a move card needs a top and a bottom end")),
            }
        }
        "joker" => {
            let character = character(rc)?;
            forbid_card_fields(ctx, span, rc)?;
            ctx.forbid(span, id, kind, "rank", &rc.rank)?;
            ctx.forbid(span, id, kind, "suit", &rc.suit)?;
            forbid_end("top", &rc.top)?;
            forbid_end("bottom", &rc.bottom)?;
            Ok(YomiCard::Joker(YomiJoker { character }))
        }
        other => Err(ctx.field_err(
            span,
            "kind",
            format!("unknown Yomi card kind `{other}` (expected character, move or joker)"),
        )),
    }
}

/// Refuses the character-card fields on a deck card.
pub(super) fn forbid_card_fields(
    ctx: &Ctx<'_>,
    span: &Span,
    rc: &RawYomiCard,
) -> Result<(), CatalogueError> {
    let (id, kind) = (rc.id.as_str(), rc.kind.as_str());
    ctx.forbid(span, id, kind, "hp", &rc.hp)?;
    ctx.forbid(span, id, kind, "combo_points", &rc.combo_points)?;
    ctx.forbid(span, id, kind, "hand_limit", &rc.hand_limit)?;
    ctx.forbid(span, id, kind, "abilities", &rc.abilities)
}

pub(super) fn move_end(
    ctx: &Ctx<'_>,
    span: &Span,
    id: &str,
    end: &str,
    raw: &RawEnd,
    rank: Rank,
) -> Result<MoveEnd, CatalogueError> {
    let at = |key: &str| end_offset(ctx, span, end, Some(key));
    let field = |key: &str| format!("{end}.{key}");
    let kind = match raw.kind.as_str() {
        "attack" => MoveKind::Attack,
        "throw" => MoveKind::Throw,
        "block" => MoveKind::Block,
        "dodge" => MoveKind::Dodge,
        "ability" => MoveKind::Ability,
        other => {
            return Err(ctx.err(
                at("kind"),
                Some(&field("kind")),
                format!(
                    "unknown move kind `{other}` (expected attack, throw, block, dodge or ability)"
                ),
            ));
        }
    };
    let need = |key: &str, present: bool| -> Result<(), CatalogueError> {
        if present {
            Ok(())
        } else {
            Err(ctx.err(
                at("kind"),
                Some(&field(key)),
                format!(
                    "the {end} end of card `{id}` ({}) needs `{key}`",
                    kind.as_str()
                ),
            ))
        }
    };
    let forbid = |key: &str, present: bool, why: &str| -> Result<(), CatalogueError> {
        if present {
            Err(ctx.err(
                at(key),
                Some(&field(key)),
                format!(
                    "the {end} end of card `{id}` is a {}, which has no `{key}`{why}",
                    kind.as_str()
                ),
            ))
        } else {
            Ok(())
        }
    };
    if kind.strikes() {
        need("speed", raw.speed.is_some())?;
        need("damage", raw.damage.is_some())?;
        need("combo_points", raw.combo_points.is_some())?;
    } else {
        for (key, present) in [
            ("speed", raw.speed.is_some()),
            ("damage", raw.damage.is_some()),
            ("combo_points", raw.combo_points.is_some()),
            ("combo", raw.combo.is_some()),
            ("knockdown", raw.knockdown.is_some()),
            ("pump_damage", raw.pump_damage.is_some()),
            ("pump_cost", raw.pump_cost.is_some()),
            ("aces", raw.aces.is_some()),
        ] {
            forbid(key, present, "")?;
        }
    }
    if kind != MoveKind::Attack {
        forbid(
            "block_damage",
            raw.block_damage.is_some(),
            " (only an attack can be blocked)",
        )?;
        forbid(
            "mix_up",
            raw.mix_up.is_some(),
            " (only attacks are mix-ups)",
        )?;
    }
    if kind == MoveKind::Ability && raw.abilities.as_ref().is_none_or(Vec::is_empty) {
        return Err(ctx.err(
            at("kind"),
            Some(&field("abilities")),
            format!("the {end} end of card `{id}` is an ability end, which needs `abilities`"),
        ));
    }
    if raw.aces.is_some() && rank != Rank::Ace {
        return Err(ctx.err(
            at("aces"),
            Some(&field("aces")),
            format!("card `{id}` is a {rank}: only an Ace's super moves need Aces"),
        ));
    }
    if raw.pump_cost.is_some() && raw.pump_damage.is_none() {
        need("pump_damage", false)?;
    }
    let speed = match raw.speed {
        None => None,
        Some(s) => {
            let tenths = (s * 10.0).round();
            let range = Speed::RANGE;
            if !(f64::from(*range.start())..=f64::from(*range.end())).contains(&tenths)
                || (s * 10.0 - tenths).abs() > 1e-6
            {
                return Err(ctx.err(
                    at("speed"),
                    Some(&field("speed")),
                    format!("speed {s} must be 0.0 to 20.0 in steps of 0.1"),
                ));
            }
            Some(Speed(int(
                ctx,
                at("speed"),
                &field("speed"),
                tenths as i64,
                0..=200,
            )?))
        }
    };
    let opt_int = |key: &str, value: Option<i64>, range: std::ops::RangeInclusive<i64>| {
        value
            .map(|v| int::<u16>(ctx, at(key), &field(key), v, range))
            .transpose()
    };
    let damage = opt_int("damage", raw.damage, 0..=99)?;
    let block_damage = opt_int("block_damage", raw.block_damage, 0..=99)?;
    let combo_points = opt_int("combo_points", raw.combo_points, 0..=20)?
        .map(|v| u8::try_from(v).unwrap_or(u8::MAX));
    let mut combo = Vec::new();
    for role in raw.combo.as_ref().map(OneOrMany::items).unwrap_or_default() {
        let parsed = ComboRole::parse(role).ok_or_else(|| {
            ctx.err(
                at("combo"),
                Some(&field("combo")),
                format!("unknown combo role `{role}` (expected starter, linker or ender)"),
            )
        })?;
        if !combo.contains(&parsed) {
            combo.push(parsed);
        }
    }
    combo.sort();
    let pump = match raw.pump_damage {
        None => None,
        Some(d) => Some(Pump {
            damage: int(ctx, at("pump_damage"), &field("pump_damage"), d, 1..=99)?,
            cost: match raw.pump_cost {
                Some(c) => int(ctx, at("pump_cost"), &field("pump_cost"), c, 1..=4)?,
                None => 1,
            },
        }),
    };
    let aces = match (rank, kind.strikes(), raw.aces) {
        (_, _, Some(a)) => int(ctx, at("aces"), &field("aces"), a, 1..=4)?,
        (Rank::Ace, true, None) => 1,
        _ => 0,
    };
    Ok(MoveEnd {
        kind,
        name_ja: raw.name_ja.clone(),
        name_en: raw.name_en.clone(),
        speed,
        damage,
        block_damage,
        combo_points,
        combo,
        knockdown: raw.knockdown.unwrap_or(false),
        mix_up: raw.mix_up.unwrap_or(false),
        pump,
        aces,
        abilities: abilities(
            ctx,
            at("abilities"),
            &field("abilities"),
            raw.abilities.as_deref().unwrap_or_default(),
        )?,
    })
}

// ------------------------------------------------------------------------------------------------
// Checks across cards

/// Where the `[[table]]` entry with this id starts (else the file's start).
pub(super) fn entry_offset(ctx: &Ctx<'_>, table: &str, id: &str) -> usize {
    let header = format!("[[{table}]]");
    let wanted = format!("\"{id}\"");
    let mut pos = 0;
    let mut current: Option<usize> = None;
    for line in ctx.text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let at = pos + (line.len() - trimmed.len());
        pos += line.len();
        if trimmed.starts_with('[') {
            current = trimmed.starts_with(&header).then_some(at);
            continue;
        }
        if let Some(start) = current
            && assigns(trimmed, "id")
            && trimmed
                .split_once('=')
                .is_some_and(|(_, v)| v.trim().starts_with(&wanted))
        {
            return start;
        }
    }
    0
}

pub(super) fn entry_err(
    ctx: &Ctx<'_>,
    table: &str,
    id: &str,
    field: &str,
    message: String,
) -> CatalogueError {
    let start = entry_offset(ctx, table, id);
    ctx.field_err(&(start..start), field, message)
}

/// A card as players name it: id, English name, and rank and suit for a move card.
pub(super) fn describe(card: &Card) -> String {
    match card.yomi() {
        Some(YomiCard::Move(m))
            if !card
                .name_en
                .to_lowercase()
                .contains(&format!("{} of {}", m.rank, m.suit).to_lowercase()) =>
        {
            format!("{} “{}” ({} of {})", card.id, card.name_en, m.rank, m.suit)
        }
        _ => format!("{} “{}”", card.id, card.name_en),
    }
}

/// What is wrong with a fixed deck list, if anything; else its character's id.
pub(super) fn fixed_deck_problem(cat: &Catalogue, list: &DeckList) -> Result<String, String> {
    let yomi = |id: &str| cat.card(id).and_then(Card::yomi);
    let characters: Vec<&str> = list
        .cards
        .iter()
        .map(String::as_str)
        .filter(|id| matches!(yomi(id), Some(YomiCard::Character(_))))
        .collect();
    let [character] = characters.as_slice() else {
        return Err(format!(
            "fixed deck `{}` must list exactly one character card (it lists {}: {})",
            list.id,
            characters.len(),
            characters.join(", ")
        ));
    };
    let mut slots: BTreeMap<(Rank, Suit), usize> = BTreeMap::new();
    let mut jokers = 0;
    for id in &list.cards {
        let Some(card) = yomi(id) else { continue };
        match card.character() {
            Some(owner) if owner != *character => {
                return Err(format!(
                    "fixed deck `{}` of character `{character}` lists `{id}`, a card of character `{owner}`",
                    list.id
                ));
            }
            _ => {}
        }
        match card {
            YomiCard::Move(m) => *slots.entry((m.rank, m.suit)).or_default() += 1,
            YomiCard::Joker(_) => jokers += 1,
            YomiCard::Character(_) => {}
        }
    }
    let mut problems = Vec::new();
    let mut missing = Vec::new();
    let mut twice = Vec::new();
    for suit in Suit::ALL {
        for rank in Rank::ALL {
            match slots.get(&(rank, suit)).copied().unwrap_or(0) {
                0 => missing.push(format!("{rank} of {suit}")),
                1 => {}
                n => twice.push(format!("{rank} of {suit} ×{n}")),
            }
        }
    }
    if !missing.is_empty() {
        problems.push(format!("it has no {}", missing.join(", ")));
    }
    if !twice.is_empty() {
        problems.push(format!("it has {}", twice.join(", ")));
    }
    if jokers != JOKERS_PER_DECK {
        problems.push(format!(
            "it has {jokers} Joker(s) instead of {JOKERS_PER_DECK}"
        ));
    }
    if problems.is_empty() {
        Ok((*character).to_owned())
    } else {
        Err(format!(
            "fixed deck `{}` is not a full Yomi deck (one card of each rank 2–A in each suit, and {JOKERS_PER_DECK} Jokers): {}",
            list.id,
            problems.join("; ")
        ))
    }
}

/// The checks across cards of a loaded Yomi catalogue; returns it when they pass.
pub(crate) fn cross_check(ctx: &Ctx<'_>, cat: Catalogue) -> Result<Catalogue, CatalogueError> {
    let mut slots: BTreeMap<(&str, Rank, Suit), &str> = BTreeMap::new();
    for card in &cat.cards {
        let Some(data) = card.yomi() else { continue };
        let Some(owner) = data.character() else {
            continue;
        };
        match cat.card(owner).and_then(Card::yomi) {
            Some(YomiCard::Character(_)) => {}
            Some(_) => {
                return Err(entry_err(
                    ctx,
                    "cards",
                    &card.id,
                    "character",
                    format!(
                        "card `{}` names `{owner}` as its character, but `{owner}` is not a character card",
                        card.id
                    ),
                ));
            }
            None => {
                return Err(entry_err(
                    ctx,
                    "cards",
                    &card.id,
                    "character",
                    format!(
                        "card `{}` names character `{owner}`, which is not in this catalogue",
                        card.id
                    ),
                ));
            }
        }
        if let YomiCard::Move(m) = data
            && let Some(other) = slots.insert((owner, m.rank, m.suit), &card.id)
        {
            return Err(entry_err(
                ctx,
                "cards",
                &card.id,
                "rank",
                format!(
                    "card `{}` is the {} of {} of character `{owner}`, like card `{other}`: a character has one card per rank and suit",
                    card.id, m.rank, m.suit
                ),
            ));
        }
    }
    let mut deck_of: BTreeMap<String, &str> = BTreeMap::new();
    for list in &cat.decks {
        let character = fixed_deck_problem(&cat, list)
            .map_err(|message| entry_err(ctx, "decks", &list.id, "cards", message))?;
        if let Some(first) = deck_of.insert(character.clone(), &list.id) {
            return Err(entry_err(
                ctx,
                "decks",
                &list.id,
                "id",
                format!(
                    "character `{character}` already has fixed deck `{first}`: Yomi decks are fixed, one per character"
                ),
            ));
        }
    }
    for card in &cat.cards {
        if matches!(card.yomi(), Some(YomiCard::Character(_))) && !deck_of.contains_key(&card.id) {
            return Err(entry_err(
                ctx,
                "cards",
                &card.id,
                "id",
                format!(
                    "character `{}` has no fixed deck: add a [[decks]] entry listing its character card and its {DECK_SIZE} cards",
                    card.id
                ),
            ));
        }
    }
    Ok(cat)
}
