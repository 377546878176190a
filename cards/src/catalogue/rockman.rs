//! The Rockman EXE card game (ロックマンエグゼカードゲーム) card schema, its demo set and its deck
//! construction rules.
//!
//! Follows `rules/rockman-exe.md` (§2 setup and deck, §6 card data model, §8 optional rules
//! Lv1–Lv3, §10 gaps) and its seed `001_8d4fd42f2dd1e88a.txt`. A card is one of five kinds:
//!
//! - **navi** (ナビ): a character. Its attack power (攻撃力) is dealt as damage to the opponent's
//!   cards; damage to a navi comes off its owner's HP gauge (ＨＰゲージ), so a navi has no HP of
//!   its own.
//! - **virus** (ウイルス): a character with a level (レベル, 1–3: the Lv2 transfer limit), attack
//!   power, defence (防御力) and HP, and its evolution links (Lv2 進化).
//! - **chip** (チップ): placed face down in the chip zone (チップ置き場) and used later; it has a
//!   level (the Lv1 use limit) and, when it deals damage, an attack power.
//! - **battler** (バトラー): played from the hand as a one-shot action and discarded.
//! - **style** (スタイル, Lv3): attached to a navi, at most one per navi.
//!
//! Attack power and the target pattern on the 3×3 area ([`Target`]) are data the app applies;
//! every other effect is rules text (`text`, and `end_phase` for 「エンドフェイズに～」 effects)
//! that the players resolve.
//!
//! ```
//! use cards::catalogue::rockman::{self, RockmanCard, Target};
//! let cat = rockman::demo().unwrap();
//! // The seed's "30/50" virus: defence 30, HP 50.
//! let virus = cat.card("RX10").and_then(|c| c.rockman());
//! assert!(matches!(
//!     virus,
//!     Some(RockmanCard::Virus(v)) if (v.defence, v.hp, v.level, v.target) == (30, 50, 1, Target::Adjacent)
//! ));
//! ```

use super::{CardData, Catalogue, CatalogueError, Ctx, RawCard, Span, raw_card};
use crate::core::Violation;
use crate::decks::{Deck, unknown_variant};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Cards in a deck, the opening navi included (rules digest §2, from review R1; §10 gap 3).
pub const DECK_SIZE: usize = 30;
/// The HP gauge each player starts with (rules digest §2, from review R1).
pub const START_HP: i32 = 200;
/// The largest attack power, defence or HP a card may print (a whole HP gauge).
pub const MAX_VALUE: u32 = 200;
/// Card numbers come in steps of 10, like the HP gauge (rules digest §1, every seed value).
pub const VALUE_STEP: u32 = 10;
/// The lowest and highest level (レベル) of a chip or virus.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=3;

/// The embedded demo set (invented for Tableside; not official cards).
pub const DEMO_TOML: &str = include_str!("../../data/rockman-exe-demo.toml");

/// Where an attack lands in the opponent's 3×3 area (攻撃範囲).
///
/// Each player's area (エリア) has three *lanes* running straight towards the opponent and three
/// *ranks*: back, middle and front (the front rank touches the border with the opponent's area).
/// Damage is the attack power of the card; against a virus it is checked against its defence,
/// against a navi it comes off the owner's HP gauge. For a chip, the lane and rank are those of
/// one of the user's own area characters (navi or virus), chosen when the chip is used (using a
/// chip never makes that character acted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// 隣接 (rules digest §10 gap 4, the default when the text says only "damage"): the attacker
    /// stands in its front rank and hits the enemy card straight ahead across the border.
    Adjacent,
    /// 直線: the first enemy card straight ahead in the attacker's lane, at any distance.
    Lane,
    /// 貫通: every enemy card in the attacker's lane.
    LaneAll,
    /// 任意: any one enemy card in the opponent's area, chosen by the attacker.
    Any,
    /// 手動: the text says which cards are hit; the players name them and the app deals the
    /// attack power to each.
    Manual,
}

impl Target {
    /// Every pattern, in a stable order.
    pub const ALL: [Target; 5] = [
        Target::Adjacent,
        Target::Lane,
        Target::LaneAll,
        Target::Any,
        Target::Manual,
    ];

    /// The value written in a catalogue (`adjacent`, `lane`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Adjacent => "adjacent",
            Target::Lane => "lane",
            Target::LaneAll => "lane-all",
            Target::Any => "any",
            Target::Manual => "manual",
        }
    }

    /// The Japanese term shown to players.
    pub fn label_ja(self) -> &'static str {
        match self {
            Target::Adjacent => "隣接",
            Target::Lane => "直線",
            Target::LaneAll => "貫通",
            Target::Any => "任意",
            Target::Manual => "手動",
        }
    }

    /// Parses a catalogue value, English or Japanese.
    pub fn parse(text: &str) -> Option<Target> {
        Target::ALL
            .into_iter()
            .find(|t| t.as_str() == text || t.label_ja() == text)
    }
}

/// A navi card (ナビカード).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanNavi {
    /// 攻撃力: the damage dealt when its effect says 「ダメージ」.
    pub attack: u32,
    /// 攻撃範囲: where its attack lands.
    pub target: Target,
    /// An 「エンドフェイズに～」 effect, resolved by the players in END(1); `None` if it has none.
    pub end_phase: Option<String>,
}

/// A virus card (ウイルスカード).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanVirus {
    /// レベル 1–3. Under the Lv2 transfer limit it may be placed only while its owner's HP gauge
    /// allows this level ([`max_level`]); an evolution ignores the limit.
    pub level: u8,
    /// 攻撃力: the damage dealt when its effect says 「ダメージ」.
    pub attack: u32,
    /// 攻撃範囲: where its attack lands.
    pub target: Target,
    /// 防御力, written first in the seed's "30/50": an attack below it does nothing; it counts as
    /// 0 while the virus is acted (行動済み).
    pub defence: u32,
    /// HP, written second in "30/50": the virus is destroyed (破壊) when the damage it took this
    /// turn reaches it.
    pub hp: u32,
    /// Lv2 evolution (進化): the virus this one evolves from, if any.
    pub evolves_from: Option<String>,
    /// Lv2 evolution: the viruses this one may evolve into (each of a higher level).
    pub evolves_to: Vec<String>,
    /// An 「エンドフェイズに～」 effect, resolved by the players in END(1); `None` if it has none.
    pub end_phase: Option<String>,
}

/// A chip card (チップカード).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanChip {
    /// レベル 1–3. Under the Lv1 use limit it may be used only while its owner's HP gauge allows
    /// this level ([`max_level`]).
    pub level: u8,
    /// 攻撃力 when the chip deals damage; `None` for a chip whose effect is only its text.
    pub attack: Option<u32>,
    /// 攻撃範囲 of a chip that deals damage (`Some` exactly when `attack` is).
    pub target: Option<Target>,
}

/// A style card (スタイルカード, Lv3 rule): attached to a navi, at most one per navi.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanStyle {
    /// An 「エンドフェイズに～」 effect, resolved by the players in END(1); `None` if it has none.
    pub end_phase: Option<String>,
}

/// What a Rockman EXE card is, with the numbers the rules use. Every effect beyond these is the
/// card's `text`, resolved by the players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum RockmanCard {
    /// ナビ: a character; the opening one stands on the centre square of its owner's area.
    Navi(RockmanNavi),
    /// ウイルス: a character with defence and HP.
    Virus(RockmanVirus),
    /// チップ: placed face down in the chip zone, used and discarded in the battle phase.
    Chip(RockmanChip),
    /// バトラー: played from the hand in the battle phase (action D) and discarded; its effect is
    /// its text.
    Battler,
    /// スタイル (Lv3): attached to a navi in the transfer phase.
    Style(RockmanStyle),
}

impl RockmanCard {
    /// The kind as written in a catalogue (`navi`, `virus`, `chip`, `battler`, `style`).
    pub fn kind(&self) -> &'static str {
        match self {
            RockmanCard::Navi(_) => "navi",
            RockmanCard::Virus(_) => "virus",
            RockmanCard::Chip(_) => "chip",
            RockmanCard::Battler => "battler",
            RockmanCard::Style(_) => "style",
        }
    }

    /// The Japanese term for the kind.
    pub fn kind_ja(&self) -> &'static str {
        match self {
            RockmanCard::Navi(_) => "ナビ",
            RockmanCard::Virus(_) => "ウイルス",
            RockmanCard::Chip(_) => "チップ",
            RockmanCard::Battler => "バトラー",
            RockmanCard::Style(_) => "スタイル",
        }
    }

    /// The level of a chip or virus; `None` for the other kinds.
    pub fn level(&self) -> Option<u8> {
        match self {
            RockmanCard::Virus(v) => Some(v.level),
            RockmanCard::Chip(c) => Some(c.level),
            _ => None,
        }
    }

    /// True for the characters (キャラ): navis and viruses.
    pub fn is_character(&self) -> bool {
        matches!(self, RockmanCard::Navi(_) | RockmanCard::Virus(_))
    }
}

/// The highest chip level (Lv1 rule) or virus level (Lv2 rule) a player may use with this HP
/// gauge: 1 at 110 or more, 2 from 60 to 100, 3 at 50 or less (seed Lv1/Lv2 tables; values
/// between the seed's steps of 10 fall under the same thresholds, rules digest §5).
pub fn max_level(hp: i32) -> u8 {
    if hp >= 110 {
        1
    } else if hp >= 60 {
        2
    } else {
        3
    }
}

/// The catalogue value of a kind (English or Japanese), normalised.
fn parse_kind(text: &str) -> Option<&'static str> {
    Some(match text {
        "navi" | "ナビ" => "navi",
        "virus" | "ウイルス" => "virus",
        "chip" | "チップ" => "chip",
        "battler" | "バトラー" => "battler",
        "style" | "スタイル" => "style",
        _ => return None,
    })
}

raw_card!(RawRockmanCard {
    kind: String,
    level: Option<i64>,
    attack: Option<i64>,
    target: Option<String>,
    defence: Option<i64>,
    hp: Option<i64>,
    evolves_from: Option<String>,
    evolves_to: Option<Vec<String>>,
    end_phase: Option<String>,
});

impl RawCard for RawRockmanCard {
    fn common(&self) -> super::Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        rockman_card(ctx, span, self).map(CardData::RockmanExe)
    }

    fn check_set(ctx: &Ctx<'_>, cards: &[toml::Spanned<Self>]) -> Result<(), CatalogueError> {
        check_links(ctx, cards)
    }
}

/// True for an id that fits a card tag: 1–17 of `A`–`Z`, `0`–`9` and `-`.
fn tag_safe(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= crate::tags::MAX_CARD_ID
        && id
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
}

/// Checks a printed number: in `min..=MAX_VALUE` and a multiple of 10.
fn value(ctx: &Ctx<'_>, span: &Span, field: &str, v: i64, min: i64) -> Result<u32, CatalogueError> {
    ctx.in_range(span, field, v, min..=i64::from(MAX_VALUE))?;
    if v % i64::from(VALUE_STEP) != 0 {
        return Err(ctx.field_err(
            span,
            field,
            format!("{field} {v} is not a multiple of {VALUE_STEP} (card numbers and the HP gauge move in steps of {VALUE_STEP})"),
        ));
    }
    Ok(u32::try_from(v).unwrap_or_default())
}

fn level(ctx: &Ctx<'_>, span: &Span, v: Option<i64>) -> Result<u8, CatalogueError> {
    let v = v.unwrap_or_default();
    ctx.in_range(
        span,
        "level",
        v,
        i64::from(*LEVELS.start())..=i64::from(*LEVELS.end()),
    )?;
    Ok(u8::try_from(v).unwrap_or_default())
}

fn target(ctx: &Ctx<'_>, span: &Span, v: Option<&str>) -> Result<Target, CatalogueError> {
    match v {
        None => Ok(Target::Adjacent),
        Some(t) => Target::parse(t).ok_or_else(|| {
            ctx.field_err(
                span,
                "target",
                format!(
                    "unknown target `{t}` (expected one of: {})",
                    Target::ALL.map(Target::as_str).join(", ")
                ),
            )
        }),
    }
}

fn end_phase(
    ctx: &Ctx<'_>,
    span: &Span,
    v: &Option<String>,
) -> Result<Option<String>, CatalogueError> {
    match v {
        Some(t) if t.trim().is_empty() => Err(ctx.field_err(
            span,
            "end_phase",
            "`end_phase` is empty (leave the field out when the card has no end-phase effect)",
        )),
        other => Ok(other.clone()),
    }
}

fn rockman_card(
    ctx: &Ctx<'_>,
    span: &Span,
    rc: &RawRockmanCard,
) -> Result<RockmanCard, CatalogueError> {
    if !tag_safe(&rc.id) {
        return Err(ctx.field_err(
            span,
            "id",
            format!(
                "card id `{}` must be 1–{} characters of A–Z, 0–9 and `-` (it goes into the card's tag)",
                rc.id,
                crate::tags::MAX_CARD_ID
            ),
        ));
    }
    for (field, name) in [("name_ja", &rc.name_ja), ("name_en", &rc.name_en)] {
        if name.trim().is_empty() {
            return Err(ctx.field_err(
                span,
                field,
                format!("card `{}` has an empty `{field}`", rc.id),
            ));
        }
    }
    let Some(kind) = parse_kind(&rc.kind) else {
        return Err(ctx.field_err(
            span,
            "kind",
            format!(
                "unknown Rockman EXE card kind `{}` (expected navi, virus, chip, battler or style)",
                rc.kind
            ),
        ));
    };
    let id = rc.id.as_str();
    let n = Needs {
        ctx,
        span,
        rc,
        kind,
    };
    let needs_text = |why: &str| -> Result<(), CatalogueError> {
        if rc.text.trim().is_empty() {
            Err(ctx.err(
                ctx.field_offset(span, "kind"),
                Some("text"),
                format!("card `{id}` ({kind}) needs `text`: {why}"),
            ))
        } else {
            Ok(())
        }
    };
    match kind {
        "navi" => {
            n.need("attack", &rc.attack)?;
            n.forbid("level", &rc.level)?;
            n.forbid("defence", &rc.defence)?;
            n.forbid("hp", &rc.hp)?;
            n.forbid("evolves_from", &rc.evolves_from)?;
            n.forbid("evolves_to", &rc.evolves_to)?;
            let attack = value(ctx, span, "attack", rc.attack.unwrap_or_default(), 0)?;
            let target = target(ctx, span, rc.target.as_deref())?;
            if target == Target::Manual {
                needs_text("a `manual` target is described by the text")?;
            }
            Ok(RockmanCard::Navi(RockmanNavi {
                attack,
                target,
                end_phase: end_phase(ctx, span, &rc.end_phase)?,
            }))
        }
        "virus" => {
            n.need("level", &rc.level)?;
            n.need("attack", &rc.attack)?;
            n.need("defence", &rc.defence)?;
            n.need("hp", &rc.hp)?;
            let level = level(ctx, span, rc.level)?;
            let attack = value(ctx, span, "attack", rc.attack.unwrap_or_default(), 0)?;
            let defence = value(ctx, span, "defence", rc.defence.unwrap_or_default(), 0)?;
            let hp = value(ctx, span, "hp", rc.hp.unwrap_or_default(), 10)?;
            let target = target(ctx, span, rc.target.as_deref())?;
            if target == Target::Manual {
                needs_text("a `manual` target is described by the text")?;
            }
            if let Some(from) = &rc.evolves_from
                && (from == id || !tag_safe(from))
            {
                return Err(ctx.field_err(
                    span,
                    "evolves_from",
                    format!("`evolves_from = \"{from}\"` must name another card of this set"),
                ));
            }
            let evolves_to = rc.evolves_to.clone().unwrap_or_default();
            if rc.evolves_to.is_some() && evolves_to.is_empty() {
                return Err(ctx.field_err(
                    span,
                    "evolves_to",
                    "`evolves_to` is empty (leave the field out when the virus does not evolve)",
                ));
            }
            let mut seen = BTreeSet::new();
            for to in &evolves_to {
                if to == id || !tag_safe(to) || !seen.insert(to) {
                    return Err(ctx.field_err(
                        span,
                        "evolves_to",
                        format!(
                            "`evolves_to` entry `{to}` must name another card of this set, once"
                        ),
                    ));
                }
            }
            Ok(RockmanCard::Virus(RockmanVirus {
                level,
                attack,
                target,
                defence,
                hp,
                evolves_from: rc.evolves_from.clone(),
                evolves_to,
                end_phase: end_phase(ctx, span, &rc.end_phase)?,
            }))
        }
        "chip" => {
            n.need("level", &rc.level)?;
            n.forbid("defence", &rc.defence)?;
            n.forbid("hp", &rc.hp)?;
            n.forbid("evolves_from", &rc.evolves_from)?;
            n.forbid("evolves_to", &rc.evolves_to)?;
            n.forbid("end_phase", &rc.end_phase)?;
            let level = level(ctx, span, rc.level)?;
            let (attack, target) = match rc.attack {
                Some(a) => {
                    let t = target(ctx, span, rc.target.as_deref())?;
                    if t == Target::Manual {
                        needs_text("a `manual` target is described by the text")?;
                    }
                    (Some(value(ctx, span, "attack", a, 0)?), Some(t))
                }
                None => {
                    if rc.target.is_some() {
                        return Err(ctx.field_err(
                            span,
                            "target",
                            format!("chip `{id}` has a `target` but no `attack`"),
                        ));
                    }
                    needs_text("a chip without `attack` does only what its text says")?;
                    (None, None)
                }
            };
            Ok(RockmanCard::Chip(RockmanChip {
                level,
                attack,
                target,
            }))
        }
        "battler" | "style" => {
            n.forbid("level", &rc.level)?;
            n.forbid("attack", &rc.attack)?;
            n.forbid("target", &rc.target)?;
            n.forbid("defence", &rc.defence)?;
            n.forbid("hp", &rc.hp)?;
            n.forbid("evolves_from", &rc.evolves_from)?;
            n.forbid("evolves_to", &rc.evolves_to)?;
            if kind == "battler" {
                n.forbid("end_phase", &rc.end_phase)?;
                needs_text("a battler card does only what its text says")?;
                Ok(RockmanCard::Battler)
            } else {
                let end_phase = end_phase(ctx, span, &rc.end_phase)?;
                if end_phase.is_none() {
                    needs_text("a style card does only what its text says")?;
                }
                Ok(RockmanCard::Style(RockmanStyle { end_phase }))
            }
        }
        _ => Err(ctx.field_err(span, "kind", format!("unknown kind `{kind}`"))),
    }
}

/// The `need`/`forbid` helpers bound to one card.
struct Needs<'c, 'a> {
    ctx: &'c Ctx<'a>,
    span: &'c Span,
    rc: &'c RawRockmanCard,
    kind: &'static str,
}

impl Needs<'_, '_> {
    fn need<T>(&self, field: &str, value: &Option<T>) -> Result<(), CatalogueError> {
        self.ctx
            .need(self.span, &self.rc.id, self.kind, field, value)
    }

    fn forbid<T>(&self, field: &str, value: &Option<T>) -> Result<(), CatalogueError> {
        self.ctx
            .forbid(self.span, &self.rc.id, self.kind, field, value)
    }
}

/// Checks the links between cards that a single card cannot: every evolution link names a virus
/// of the set, both ends print it (`evolves_to` on one, `evolves_from` on the other), and an
/// evolution raises the level.
fn check_links(
    ctx: &Ctx<'_>,
    cards: &[toml::Spanned<RawRockmanCard>],
) -> Result<(), CatalogueError> {
    let by_id: BTreeMap<&str, &RawRockmanCard> = cards
        .iter()
        .map(|c| (c.get_ref().id.as_str(), c.get_ref()))
        .collect();
    let virus = |id: &str| {
        by_id
            .get(id)
            .copied()
            .filter(|c| parse_kind(&c.kind) == Some("virus"))
    };
    for spanned in cards {
        let (span, rc) = (spanned.span(), spanned.get_ref());
        if let Some(from) = &rc.evolves_from {
            let Some(base) = virus(from) else {
                return Err(ctx.field_err(
                    &span,
                    "evolves_from",
                    format!(
                        "card `{}` evolves from `{from}`, which is not a virus of this set",
                        rc.id
                    ),
                ));
            };
            if !base.evolves_to.iter().flatten().any(|t| *t == rc.id) {
                return Err(ctx.field_err(
                    &span,
                    "evolves_from",
                    format!(
                        "card `{}` evolves from `{from}`, but `{from}` does not list `{}` in `evolves_to`",
                        rc.id, rc.id
                    ),
                ));
            }
        }
        for to in rc.evolves_to.iter().flatten() {
            let Some(next) = virus(to) else {
                return Err(ctx.field_err(
                    &span,
                    "evolves_to",
                    format!(
                        "card `{}` evolves into `{to}`, which is not a virus of this set",
                        rc.id
                    ),
                ));
            };
            if next.evolves_from.as_deref() != Some(rc.id.as_str()) {
                return Err(ctx.field_err(
                    &span,
                    "evolves_to",
                    format!(
                        "card `{}` evolves into `{to}`, but `{to}` does not say `evolves_from = \"{}\"`",
                        rc.id, rc.id
                    ),
                ));
            }
            if next.level.unwrap_or_default() <= rc.level.unwrap_or_default() {
                return Err(ctx.field_err(
                    &span,
                    "evolves_to",
                    format!(
                        "card `{}` (level {}) evolves into `{to}` (level {}): an evolution (レベルアップ) must raise the level",
                        rc.id,
                        rc.level.unwrap_or_default(),
                        next.level.unwrap_or_default()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Loads a catalogue (the same as [`Catalogue::load`], which checks the evolution links of a
/// Rockman EXE set once all its cards are read).
pub fn load(file: &str, text: &str) -> Result<Catalogue, CatalogueError> {
    Catalogue::load(file, text)
}

/// The embedded demo set.
pub fn demo() -> Result<Catalogue, CatalogueError> {
    load("rockman-exe-demo.toml (embedded)", DEMO_TOML)
}

const REF_SIZE: &str = "rockman-exe.md §2, §10 gap 3 (30 cards: outside the seed, review R1)";
const REF_NAVI: &str = "rockman-exe.md §2, §10 gap 2 [DEFAULT: the opening navi comes from the deck]; seed 転送フェイズ キャラ（ナビかウイルス）";
const REF_EXTRA: &str = "rockman-exe.md §1 components, §2 (one 30-card deck, no extra deck)";

/// Checks a deck against the Rockman EXE construction rules (`Deck::check` has already checked
/// the game, the set and that every card exists). One violation per broken rule:
///
/// - `rockman-exe.deck-size`: exactly 30 cards, the opening navi included.
/// - `rockman-exe.deck-navi`: at least one navi, for the centre square at the start.
/// - `rockman-exe.deck-extra`: no extra deck.
/// - `deck.variant`: the game has no construction variants (the optional rules Lv1–Lv3 are
///   chosen for the match, not the deck).
///
/// There is no copy limit and no other composition rule (rules digest §10 gap 3), and no fixed
/// per-navi deck lists: the seed and the digest describe only free 30-card decks.
pub fn check_deck(deck: &Deck, catalogue: &Catalogue) -> Vec<Violation> {
    let mut v = Vec::new();
    if let Some(variant) = &deck.variant {
        v.push(unknown_variant(deck.game, variant, &[]));
    }
    let n = deck.main.len();
    if n != DECK_SIZE {
        let fix = if n < DECK_SIZE {
            format!("add {}", DECK_SIZE - n)
        } else {
            format!("remove {}", n - DECK_SIZE)
        };
        v.push(Violation::new(
            "rockman-exe.deck-size",
            format!(
                "A Rockman EXE deck has exactly {DECK_SIZE} cards, the opening navi included; this one has {n} ({fix})."
            ),
            REF_SIZE,
        ));
    }
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &deck.main {
        let kind = catalogue
            .card(&c.card)
            .and_then(|card| card.rockman())
            .map_or("unknown", RockmanCard::kind);
        *kinds.entry(kind).or_default() += 1;
    }
    if !kinds.contains_key("navi") {
        let has: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let has = if has.is_empty() {
            "no cards".to_owned()
        } else {
            has.join(", ")
        };
        v.push(Violation::new(
            "rockman-exe.deck-navi",
            format!(
                "A deck needs at least one navi (ナビ) to stand on the centre square of its area at the start; this one has none ({has})."
            ),
            REF_NAVI,
        ));
    }
    if !deck.extra.is_empty() {
        let copies: Vec<String> = deck.extra.iter().map(ToString::to_string).collect();
        v.push(Violation::new(
            "rockman-exe.deck-extra",
            format!(
                "A Rockman EXE deck has no extra deck; move these {} into the main deck or leave them out: {}.",
                if copies.len() == 1 { "card" } else { "cards" },
                copies.join(", ")
            ),
            REF_EXTRA,
        ));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Card;

    fn rockman(card: &Card) -> &RockmanCard {
        card.rockman().unwrap()
    }

    const HEAD: &str =
        "format = 1\ngame = \"rockman-exe\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n";

    /// A one-card catalogue: `HEAD` (6 lines), then `[[cards]]` on line 7 and `body` from line 8.
    fn one(body: &str) -> Result<Catalogue, CatalogueError> {
        load("x.toml", &format!("{HEAD}[[cards]]\n{body}"))
    }

    fn err(body: &str) -> CatalogueError {
        one(body).unwrap_err()
    }

    const VIRUS: &str = "id = \"V1\"\nname_ja = \"ウイルス\"\nname_en = \"Virus\"\nkind = \"virus\"\nlevel = 1\nattack = 10\ndefence = 30\nhp = 50\n";

    // ---- the demo set ----

    #[test]
    fn demo_set_loads_with_every_kind_level_and_field() {
        // Given the embedded demo set
        let cat = demo().unwrap();
        // Then it is marked as made for the app, not official
        assert_eq!(cat.game, crate::core::GameId::RockmanExe);
        assert!(cat.set.demo);
        assert!(cat.set.note.contains("not official"), "{}", cat.set.note);
        let data: Vec<&RockmanCard> = cat.cards.iter().map(rockman).collect();
        // and it holds every kind
        for kind in ["navi", "virus", "chip", "battler", "style"] {
            assert!(data.iter().any(|c| c.kind() == kind), "{kind}");
        }
        let viruses: Vec<&RockmanVirus> = data
            .iter()
            .filter_map(|c| match c {
                RockmanCard::Virus(v) => Some(v),
                _ => None,
            })
            .collect();
        let chips: Vec<&RockmanChip> = data
            .iter()
            .filter_map(|c| match c {
                RockmanCard::Chip(v) => Some(v),
                _ => None,
            })
            .collect();
        // Lv1: chips of every level, with and without attack; Lv2: viruses of every level
        for level in LEVELS {
            assert!(chips.iter().any(|c| c.level == level), "chip level {level}");
            assert!(
                viruses.iter().any(|v| v.level == level),
                "virus level {level}"
            );
        }
        assert!(chips.iter().any(|c| c.attack.is_none()));
        assert!(chips.iter().any(|c| c.attack.is_some()));
        // Lv2 evolution, both ends, and a two-step chain
        assert!(
            viruses
                .iter()
                .any(|v| v.evolves_from.is_some() && !v.evolves_to.is_empty())
        );
        // the seed's 30/50 virus and a defence-0 one
        assert!(viruses.iter().any(|v| (v.defence, v.hp) == (30, 50)));
        assert!(viruses.iter().any(|v| v.defence == 0));
        // Lv3: style cards, one with an end-phase effect
        assert!(
            data.iter()
                .any(|c| matches!(c, RockmanCard::Style(s) if s.end_phase.is_some()))
        );
        assert!(
            data.iter()
                .any(|c| matches!(c, RockmanCard::Navi(n) if n.end_phase.is_some()))
        );
        assert!(viruses.iter().any(|v| v.end_phase.is_some()));
        // every target pattern is used
        let targets: BTreeSet<Target> = data
            .iter()
            .filter_map(|c| match c {
                RockmanCard::Navi(n) => Some(n.target),
                RockmanCard::Virus(v) => Some(v.target),
                RockmanCard::Chip(c) => c.target,
                _ => None,
            })
            .collect();
        assert_eq!(targets.len(), Target::ALL.len(), "{targets:?}");
        // and at least two ready-made decks
        assert!(cat.decks.len() >= 2);
    }

    #[test]
    fn demo_cards_are_tag_safe_and_named_in_both_languages() {
        let cat = demo().unwrap();
        for card in &cat.cards {
            assert!(tag_safe(&card.id), "{}", card.id);
            assert!(card.id.starts_with("RX"), "{}", card.id);
            assert!(
                !card.name_en.is_empty() && card.name_en.is_ascii(),
                "{}",
                card.id
            );
            assert!(!card.name_ja.is_ascii(), "{} has no Japanese name", card.id);
        }
    }

    #[test]
    fn demo_cards_round_trip_through_json() {
        let cat = demo().unwrap();
        let json = serde_json::to_string(&cat).unwrap();
        let back: Catalogue = serde_json::from_str(&json).unwrap();
        assert_eq!(back, cat);
    }

    #[test]
    fn max_level_follows_the_seed_bands() {
        // Worked example 6: 200 and 110 → level 1; 100 and 60 → 2; 50 and below → 3.
        for (hp, level) in [
            (200, 1),
            (110, 1),
            (100, 2),
            (60, 2),
            (50, 3),
            (10, 3),
            (0, 3),
        ] {
            assert_eq!(max_level(hp), level, "HP {hp}");
        }
        // Between the steps of 10, the same thresholds.
        assert_eq!((max_level(105), max_level(55)), (2, 3));
    }

    // ---- card validation ----

    #[test]
    fn a_minimal_virus_loads_with_the_default_target() {
        let cat = one(VIRUS).unwrap();
        let card = cat.card("V1").unwrap();
        assert_eq!(
            rockman(card),
            &RockmanCard::Virus(RockmanVirus {
                level: 1,
                attack: 10,
                target: Target::Adjacent,
                defence: 30,
                hp: 50,
                evolves_from: None,
                evolves_to: vec![],
                end_phase: None,
            })
        );
    }

    #[test]
    fn japanese_kind_and_target_are_accepted() {
        let cat = one("id = \"N1\"\nname_ja = \"ナビ\"\nname_en = \"Navi\"\nkind = \"ナビ\"\nattack = 30\ntarget = \"直線\"\n").unwrap();
        assert_eq!(
            rockman(cat.card("N1").unwrap()),
            &RockmanCard::Navi(RockmanNavi {
                attack: 30,
                target: Target::Lane,
                end_phase: None
            })
        );
    }

    #[test]
    fn bad_numbers_name_their_line_and_field() {
        // Given a virus whose HP (line 15) is not a multiple of 10
        let e = err(&VIRUS.replace("hp = 50", "hp = 55"));
        // Then the error names line 15 and `hp`
        assert_eq!((e.line, e.field.as_deref()), (15, Some("hp")), "{e}");
        assert!(e.to_string().starts_with("x.toml:15:"), "{e}");
        // An attack above 200 (line 13), a level of 4 (line 12), a negative defence (line 14)
        let e = err(&VIRUS.replace("attack = 10", "attack = 210"));
        assert_eq!((e.line, e.field.as_deref()), (13, Some("attack")), "{e}");
        let e = err(&VIRUS.replace("level = 1", "level = 4"));
        assert_eq!((e.line, e.field.as_deref()), (12, Some("level")), "{e}");
        let e = err(&VIRUS.replace("defence = 30", "defence = -10"));
        assert_eq!((e.line, e.field.as_deref()), (14, Some("defence")), "{e}");
        // A virus needs at least 10 HP
        let e = err(&VIRUS.replace("hp = 50", "hp = 0"));
        assert_eq!((e.line, e.field.as_deref()), (15, Some("hp")), "{e}");
        // A number written as text is a TOML type error on its line
        let e = err(&VIRUS.replace("hp = 50", "hp = \"fifty\""));
        assert_eq!(e.line, 15, "{e}");
    }

    #[test]
    fn unknown_enum_values_name_their_line_and_field() {
        let e = err(&VIRUS.replace("kind = \"virus\"", "kind = \"trap\""));
        assert_eq!((e.line, e.field.as_deref()), (11, Some("kind")), "{e}");
        let e = err(&format!("{VIRUS}target = \"diagonal\"\n"));
        assert_eq!((e.line, e.field.as_deref()), (16, Some("target")), "{e}");
        assert!(e.message.contains("lane-all"), "{e}");
    }

    #[test]
    fn unknown_field_is_refused_by_name() {
        let e = err(&format!("{VIRUS}defense = 30\n"));
        assert_eq!((e.line, e.field.as_deref()), (16, Some("defense")), "{e}");
    }

    #[test]
    fn required_fields_are_asked_for_at_the_kind_line() {
        // A virus without defence: the error points at `kind` (line 11) and names `defence`
        let e = err(&VIRUS.replace("defence = 30\n", ""));
        assert_eq!((e.line, e.field.as_deref()), (11, Some("defence")), "{e}");
        let e = err(&VIRUS.replace("level = 1\n", ""));
        assert_eq!(e.field.as_deref(), Some("level"), "{e}");
        // A navi needs an attack
        let e = err("id = \"N1\"\nname_ja = \"ナビ\"\nname_en = \"N\"\nkind = \"navi\"\n");
        assert_eq!((e.line, e.field.as_deref()), (11, Some("attack")), "{e}");
        // A chip needs a level
        let e =
            err("id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nattack = 10\n");
        assert_eq!((e.line, e.field.as_deref()), (11, Some("level")), "{e}");
        // A battler, a style and a chip without attack need their text
        for body in [
            "id = \"B1\"\nname_ja = \"バ\"\nname_en = \"B\"\nkind = \"battler\"\n",
            "id = \"S1\"\nname_ja = \"ス\"\nname_en = \"S\"\nkind = \"style\"\n",
            "id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nlevel = 1\n",
        ] {
            let e = err(body);
            assert_eq!((e.line, e.field.as_deref()), (11, Some("text")), "{e}");
        }
        // A manual target needs the text that describes it
        let e = err(&format!("{VIRUS}target = \"manual\"\n"));
        assert_eq!(e.field.as_deref(), Some("text"), "{e}");
    }

    #[test]
    fn forbidden_fields_are_refused_at_their_line() {
        // A navi has no HP of its own (damage comes off the HP gauge)
        let e = err(
            "id = \"N1\"\nname_ja = \"ナ\"\nname_en = \"N\"\nkind = \"navi\"\nattack = 10\nhp = 100\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (13, Some("hp")), "{e}");
        // A chip has no defence
        let e = err(
            "id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nlevel = 1\nattack = 10\ndefence = 10\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (14, Some("defence")), "{e}");
        // A chip without attack has no target
        let e = err(
            "id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nlevel = 1\ntarget = \"any\"\ntext = \"t\"\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (13, Some("target")), "{e}");
        // A battler has no level, and no end-phase effect (it is discarded at once)
        let e = err(
            "id = \"B1\"\nname_ja = \"バ\"\nname_en = \"B\"\nkind = \"battler\"\ntext = \"t\"\nlevel = 2\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (13, Some("level")), "{e}");
        let e = err(
            "id = \"B1\"\nname_ja = \"バ\"\nname_en = \"B\"\nkind = \"battler\"\ntext = \"t\"\nend_phase = \"x\"\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (13, Some("end_phase")), "{e}");
        // A style card has no attack
        let e = err(
            "id = \"S1\"\nname_ja = \"ス\"\nname_en = \"S\"\nkind = \"style\"\ntext = \"t\"\nattack = 10\n",
        );
        assert_eq!((e.line, e.field.as_deref()), (13, Some("attack")), "{e}");
        // Only viruses evolve
        let e = err(
            "id = \"N1\"\nname_ja = \"ナ\"\nname_en = \"N\"\nkind = \"navi\"\nattack = 10\nevolves_to = [\"N2\"]\n",
        );
        assert_eq!(
            (e.line, e.field.as_deref()),
            (13, Some("evolves_to")),
            "{e}"
        );
    }

    #[test]
    fn ids_must_fit_a_tag() {
        let e = err(&VIRUS.replace("\"V1\"", "\"v1\""));
        assert_eq!((e.line, e.field.as_deref()), (8, Some("id")), "{e}");
        let e = err(&VIRUS.replace("\"V1\"", "\"RX-0123456789ABCDE\""));
        assert_eq!((e.line, e.field.as_deref()), (8, Some("id")), "{e}");
    }

    #[test]
    fn empty_names_are_refused() {
        let e = err(&VIRUS.replace("name_en = \"Virus\"", "name_en = \"\""));
        assert_eq!((e.line, e.field.as_deref()), (10, Some("name_en")), "{e}");
    }

    // ---- evolution links ----

    fn chain(base_to: &str, next_level: u8, next_from: &str) -> String {
        format!(
            "{HEAD}[[cards]]\n{}evolves_to = [{base_to}]\n[[cards]]\n{}evolves_from = \"{next_from}\"\n",
            VIRUS,
            VIRUS
                .replace("\"V1\"", "\"V2\"")
                .replace("level = 1", &format!("level = {next_level}"))
        )
    }

    #[test]
    fn consistent_evolution_loads() {
        let cat = load("x.toml", &chain("\"V2\"", 2, "V1")).unwrap();
        let Some(RockmanCard::Virus(v)) = cat.card("V1").map(rockman) else {
            panic!()
        };
        assert_eq!(v.evolves_to, ["V2"]);
    }

    #[test]
    fn evolution_into_a_missing_card_names_the_line() {
        // `evolves_to` of V1 is on line 16
        let e = load("x.toml", &chain("\"V9\"", 2, "V1")).unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (16, Some("evolves_to")),
            "{e}"
        );
        assert!(e.message.contains("V9"), "{e}");
    }

    #[test]
    fn evolution_must_be_printed_on_both_cards() {
        // V2 says it evolves from V1, but V1 lists nothing: the error is at V2's `evolves_from`
        let text = chain("\"V2\"", 2, "V1").replace("evolves_to = [\"V2\"]\n", "");
        let e = load("x.toml", &text).unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (25, Some("evolves_from")),
            "{e}"
        );
    }

    #[test]
    fn evolution_must_raise_the_level() {
        let e = load("x.toml", &chain("\"V2\"", 1, "V1")).unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (16, Some("evolves_to")),
            "{e}"
        );
        assert!(e.message.contains("raise the level"), "{e}");
    }

    #[test]
    fn a_virus_cannot_evolve_into_itself() {
        let e = err(&format!("{VIRUS}evolves_to = [\"V1\"]\n"));
        assert_eq!(
            (e.line, e.field.as_deref()),
            (16, Some("evolves_to")),
            "{e}"
        );
    }

    // ---- decks ----

    fn deck_text(main: &[&str], extra: &[&str], variant: Option<&str>) -> String {
        let mut text = String::from(
            "format = 1\ngame = \"rockman-exe\"\nset = \"rockman-exe-demo\"\nname = \"D\"\nowner = \"Aki\"\n",
        );
        if let Some(v) = variant {
            text.push_str(&format!("variant = \"{v}\"\n"));
        }
        for (section, ids) in [("main", main), ("extra", extra)] {
            let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
            for id in ids {
                *counts.entry(id).or_default() += 1;
            }
            text.push_str(&format!("[{section}]\n"));
            for (id, n) in counts {
                text.push_str(&format!("{id} = {n}\n"));
            }
        }
        text
    }

    fn check(main: &[&str], extra: &[&str], variant: Option<&str>) -> Vec<Violation> {
        let cat = demo().unwrap();
        let deck = Deck::load("d.toml", &deck_text(main, extra, variant)).unwrap();
        deck.check(&cat).unwrap()
    }

    fn rules(v: &[Violation]) -> Vec<&str> {
        v.iter().map(|v| v.rule.as_str()).collect()
    }

    /// The first ready-made deck of the demo set, one id per copy.
    fn aozora() -> Vec<String> {
        demo().unwrap().deck("aozora").unwrap().cards.clone()
    }

    #[test]
    fn ready_made_decks_are_legal() {
        let cat = demo().unwrap();
        for list in &cat.decks {
            let ids: Vec<&str> = list.cards.iter().map(String::as_str).collect();
            let v = check(&ids, &[], None);
            assert!(v.is_empty(), "{}: {v:?}", list.id);
        }
    }

    #[test]
    fn a_30_card_deck_with_a_navi_is_legal() {
        // Given 1 navi and 29 other cards, copies of any count
        let mut ids = vec!["RX03"];
        ids.extend(["RX18"; 20]);
        ids.extend(["RX27"; 9]);
        // Then no rule is broken (there is no copy limit)
        assert_eq!(check(&ids, &[], None), vec![]);
    }

    #[test]
    fn a_short_or_long_deck_breaks_only_deck_size() {
        let full = aozora();
        let ids: Vec<&str> = full.iter().map(String::as_str).collect();
        // 29 cards: drop the last (not the only navi)
        let v = check(&ids[..29], &[], None);
        assert_eq!(rules(&v), ["rockman-exe.deck-size"], "{v:?}");
        assert!(v[0].sentence.contains("has 29 (add 1)"), "{}", v[0]);
        // 31 cards
        let mut long = ids.clone();
        long.push("RX27");
        let v = check(&long, &[], None);
        assert_eq!(rules(&v), ["rockman-exe.deck-size"], "{v:?}");
        assert!(v[0].sentence.contains("has 31 (remove 1)"), "{}", v[0]);
    }

    #[test]
    fn a_deck_without_a_navi_breaks_only_deck_navi() {
        let mut ids = vec!["RX05"; 10];
        ids.extend(["RX18"; 15]);
        ids.extend(["RX27"; 5]);
        let v = check(&ids, &[], None);
        assert_eq!(rules(&v), ["rockman-exe.deck-navi"], "{v:?}");
        assert!(
            v[0].sentence.contains("battler 5, chip 15, virus 10"),
            "{}",
            v[0]
        );
    }

    #[test]
    fn an_extra_deck_breaks_only_deck_extra() {
        // 30 legal main cards plus 2 in the extra section
        let full = aozora();
        let ids: Vec<&str> = full.iter().map(String::as_str).collect();
        let v = check(&ids, &["RX29", "RX29"], None);
        assert_eq!(rules(&v), ["rockman-exe.deck-extra"], "{v:?}");
        assert!(v[0].sentence.contains("RX29 #1, RX29 #2"), "{}", v[0]);
    }

    #[test]
    fn a_variant_breaks_only_deck_variant() {
        let full = aozora();
        let ids: Vec<&str> = full.iter().map(String::as_str).collect();
        let v = check(&ids, &[], Some("lv3"));
        assert_eq!(rules(&v), ["deck.variant"], "{v:?}");
        assert!(v[0].sentence.contains("lv3"), "{}", v[0]);
    }

    #[test]
    fn every_broken_rule_is_reported_once() {
        let v = check(&["RX18", "RX18"], &["RX01"], Some("draft"));
        assert_eq!(
            rules(&v),
            [
                "deck.variant",
                "rockman-exe.deck-size",
                "rockman-exe.deck-navi",
                "rockman-exe.deck-extra"
            ],
            "{v:?}"
        );
        for violation in &v {
            assert!(!violation.reference.is_empty());
        }
    }
}
