//! Reading Rockman EXE cards from a catalogue: each kind's fields, the printed numbers in steps
//! of 10, and the evolution links checked once the whole set is read.

use super::card::*;
use crate::catalogue::DemoSet;
use crate::catalogue::{
    CardData, Catalogue, CatalogueError, Common, Ctx, RawCard, Span, load_cards, raw_card,
};
use crate::core::GameId;
use std::collections::{BTreeMap, BTreeSet};

/// The embedded demo set (invented for Tableside; not official cards).
pub(crate) const DEMO: DemoSet = DemoSet {
    file: super::demo::FILE,
    text: super::demo::TOML,
};

/// The embedded demo set's text.
pub const DEMO_TOML: &str = DEMO.text;

/// Reads a catalogue of Rockman EXE cards.
pub(crate) fn load_set(ctx: &Ctx<'_>) -> Result<Catalogue, CatalogueError> {
    load_cards::<RawRockmanCard>(ctx, GameId::RockmanExe)
}

/// The catalogue value of a kind (English or Japanese), normalised.
pub(super) fn parse_kind(text: &str) -> Option<&'static str> {
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
    fn common(&self) -> Common<'_> {
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
pub(super) fn tag_safe(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= crate::tags::MAX_CARD_ID
        && id
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
}

/// Checks a printed number: in `min..=MAX_VALUE` and a multiple of 10.
pub(super) fn value(
    ctx: &Ctx<'_>,
    span: &Span,
    field: &str,
    v: i64,
    min: i64,
) -> Result<u32, CatalogueError> {
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

pub(super) fn level(ctx: &Ctx<'_>, span: &Span, v: Option<i64>) -> Result<u8, CatalogueError> {
    let v = v.unwrap_or_default();
    ctx.in_range(
        span,
        "level",
        v,
        i64::from(*LEVELS.start())..=i64::from(*LEVELS.end()),
    )?;
    Ok(u8::try_from(v).unwrap_or_default())
}

pub(super) fn target(
    ctx: &Ctx<'_>,
    span: &Span,
    v: Option<&str>,
) -> Result<Target, CatalogueError> {
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

pub(super) fn end_phase(
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

pub(super) fn rockman_card(
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
pub(super) struct Needs<'c, 'a> {
    ctx: &'c Ctx<'a>,
    span: &'c Span,
    rc: &'c RawRockmanCard,
    kind: &'static str,
}

impl Needs<'_, '_> {
    pub(super) fn need<T>(&self, field: &str, value: &Option<T>) -> Result<(), CatalogueError> {
        self.ctx
            .need(self.span, &self.rc.id, self.kind, field, value)
    }

    pub(super) fn forbid<T>(&self, field: &str, value: &Option<T>) -> Result<(), CatalogueError> {
        self.ctx
            .forbid(self.span, &self.rc.id, self.kind, field, value)
    }
}

/// Checks the links between cards that a single card cannot: every evolution link names a virus
/// of the set, both ends print it (`evolves_to` on one, `evolves_from` on the other), and an
/// evolution raises the level.
pub(super) fn check_links(
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
