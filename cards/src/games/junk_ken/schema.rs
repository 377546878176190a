//! Reading JUNK-KEN (JUNK-拳) cards from a catalogue: the fields of each kind, checked.
//!
//! Four kinds of card (`docs/catalogue-junk-ken.md` is the full reference):
//!
//! - `character` (キャラクターカード): a main-deck card. Face up in the battle zone it is the
//!   character: an HP die, one action (ATK/DRAW/HP and an amount) per janken hand, skill icons.
//!   Face down in the support zone it is the supporter (サポーター): an attribute (属性) hand, the
//!   action it adds when its owner wins with that hand, and a SUPPORT SKILL (maybe `<PASSIVE>`).
//! - `gear` (ギアカード): a main-deck card placed face up in the support zone, with a cost and a
//!   durability (耐久度) die.
//! - `awakening` (覚醒カード, EX): an extra-deck card stacked on a 【character】 or a 《category》
//!   card that stayed two turns in the battle zone; it is a character of its own.
//! - `field` (フィールドカード): an extra-deck card with a countdown die (カウント), an attribute,
//!   the players its effect targets and what using the effect lowers the die by.
//!
//! Skill icons ([`SkillIcon`]) are structured: Bullet I–III with the marked hands and the counters
//! an effect costs, Clockwise, Dice rolling with its `{1d6=6}⇒` condition and effect, Haste, Limited
//! and Necromancy with the marked hands. Effects the players resolve by hand stay text: the card's
//! `text` (its CHARACTER SKILL, or the gear or field effect) and the supporter's `support_skill`.
//!
//! A card as typed in a catalogue:
//!
//! ```toml
//! [[cards]]
//! id = "JK06"
//! name_ja = "鉄くず銃士"
//! name_en = "Scrap Gunner"
//! kind = "character"
//! cost = 3
//! categories = ["機械"]
//! rock = "atk 2"
//! scissors = "draw 1"
//! paper = "hp 1"
//! support_hand = "rock"
//! support_action = "atk 2"
//! bullet = 2
//! bullet_hands = ["rock"]
//! bullet_cost = 2
//! text = "BULLET II (グー): remove 2 counters: deal 3 damage to the opposing character."
//! ```
use super::card::*;
use crate::catalogue::DemoSet;
use crate::catalogue::{
    Card, CardData, Catalogue, CatalogueError, Common, Ctx, RawCard, Span, load_cards, raw_card,
};
use crate::core::GameId;

/// The JUNK-KEN demo set, embedded in the binary (invented for Tableside, not official cards).
pub(crate) const DEMO: DemoSet = DemoSet {
    file: super::demo::FILE,
    text: super::demo::TOML,
};

/// The JUNK-KEN demo set's text.
pub const DEMO_TOML: &str = DEMO.text;

/// Loads the embedded JUNK-KEN demo set.
pub fn demo() -> Result<Catalogue, CatalogueError> {
    Catalogue::load(DEMO.file, DEMO.text)
}

/// Reads a catalogue of JUNK-KEN cards.
pub(crate) fn load(ctx: &Ctx<'_>) -> Result<Catalogue, CatalogueError> {
    load_cards::<RawJunkKenCard>(ctx, GameId::JunkKen)
}

raw_card!(RawJunkKenCard {
    kind: String,
    cost: Option<i64>,
    categories: Option<Vec<String>>,
    limited: Option<bool>,
    hp_die: Option<i64>,
    rock: Option<String>,
    scissors: Option<String>,
    paper: Option<String>,
    support_hand: Option<String>,
    support_action: Option<String>,
    support_skill: Option<String>,
    support_passive: Option<bool>,
    bullet: Option<i64>,
    bullet_hands: Option<Vec<String>>,
    bullet_cost: Option<i64>,
    clockwise: Option<bool>,
    dice: Option<String>,
    dice_effect: Option<String>,
    haste: Option<bool>,
    necromancy_hands: Option<Vec<String>>,
    durability: Option<i64>,
    durability_event: Option<String>,
    target_character: Option<String>,
    target_category: Option<String>,
    count: Option<i64>,
    attribute: Option<String>,
    scope: Option<String>,
    spend: Option<i64>,
});

impl RawCard for RawJunkKenCard {
    fn common(&self) -> Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        Builder {
            ctx,
            span,
            rc: self,
        }
        .card()
        .map(CardData::JunkKen)
    }
}

/// The fields a character card may have besides the common ones.
pub(super) const CHARACTER_FIELDS: &[&str] = &[
    "cost",
    "categories",
    "limited",
    "hp_die",
    "rock",
    "scissors",
    "paper",
    "support_hand",
    "support_action",
    "support_skill",
    "support_passive",
    "bullet",
    "bullet_hands",
    "bullet_cost",
    "clockwise",
    "dice",
    "dice_effect",
    "haste",
    "necromancy_hands",
];
/// The fields a gear card may have.
pub(super) const GEAR_FIELDS: &[&str] = &[
    "cost",
    "categories",
    "limited",
    "durability",
    "durability_event",
];
/// The fields an awakening card may have.
pub(super) const AWAKENING_FIELDS: &[&str] = &[
    "categories",
    "limited",
    "hp_die",
    "rock",
    "scissors",
    "paper",
    "bullet",
    "bullet_hands",
    "bullet_cost",
    "clockwise",
    "dice",
    "dice_effect",
    "haste",
    "necromancy_hands",
    "target_character",
    "target_category",
];
/// The fields a field card may have.
pub(super) const FIELD_FIELDS: &[&str] = &[
    "categories",
    "limited",
    "count",
    "attribute",
    "scope",
    "spend",
];

pub(super) struct Builder<'a, 'b> {
    ctx: &'a Ctx<'b>,
    span: &'a Span,
    rc: &'a RawJunkKenCard,
}

impl Builder<'_, '_> {
    pub(super) fn err(&self, field: &str, message: impl Into<String>) -> CatalogueError {
        self.ctx.field_err(self.span, field, message)
    }

    /// An error about a missing `field`, shown on the line of `anchor` (a field that is there).
    pub(super) fn missing_at(
        &self,
        anchor: &str,
        field: &str,
        message: impl Into<String>,
    ) -> CatalogueError {
        self.ctx.err(
            self.ctx.field_offset(self.span, anchor),
            Some(field),
            message,
        )
    }

    pub(super) fn need<T>(&self, field: &str, value: &Option<T>) -> Result<(), CatalogueError> {
        self.ctx
            .need(self.span, &self.rc.id, &self.rc.kind, field, value)
    }

    /// Whether each optional field is present, in file-documentation order.
    pub(super) fn present(&self) -> [(&'static str, bool); 27] {
        let r = self.rc;
        [
            ("cost", r.cost.is_some()),
            ("categories", r.categories.is_some()),
            ("limited", r.limited.is_some()),
            ("hp_die", r.hp_die.is_some()),
            ("rock", r.rock.is_some()),
            ("scissors", r.scissors.is_some()),
            ("paper", r.paper.is_some()),
            ("support_hand", r.support_hand.is_some()),
            ("support_action", r.support_action.is_some()),
            ("support_skill", r.support_skill.is_some()),
            ("support_passive", r.support_passive.is_some()),
            ("bullet", r.bullet.is_some()),
            ("bullet_hands", r.bullet_hands.is_some()),
            ("bullet_cost", r.bullet_cost.is_some()),
            ("clockwise", r.clockwise.is_some()),
            ("dice", r.dice.is_some()),
            ("dice_effect", r.dice_effect.is_some()),
            ("haste", r.haste.is_some()),
            ("necromancy_hands", r.necromancy_hands.is_some()),
            ("durability", r.durability.is_some()),
            ("durability_event", r.durability_event.is_some()),
            ("target_character", r.target_character.is_some()),
            ("target_category", r.target_category.is_some()),
            ("count", r.count.is_some()),
            ("attribute", r.attribute.is_some()),
            ("scope", r.scope.is_some()),
            ("spend", r.spend.is_some()),
        ]
    }

    /// Refuses every present field this kind does not have.
    pub(super) fn only(&self, allowed: &[&str]) -> Result<(), CatalogueError> {
        for (field, present) in self.present() {
            if present && !allowed.contains(&field) {
                return Err(self.err(
                    field,
                    format!(
                        "card `{}` is of kind `{}`, which has no `{field}`",
                        self.rc.id, self.rc.kind
                    ),
                ));
            }
        }
        Ok(())
    }

    /// An integer field checked against its range.
    pub(super) fn int(
        &self,
        field: &str,
        value: Option<i64>,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Option<u8>, CatalogueError> {
        let Some(v) = value else { return Ok(None) };
        self.ctx.in_range(self.span, field, v, range)?;
        u8::try_from(v)
            .map(Some)
            .map_err(|_| self.err(field, format!("{field} {v} is too large")))
    }

    /// A text field that, when present, must say something.
    pub(super) fn text(
        &self,
        field: &str,
        value: &Option<String>,
    ) -> Result<String, CatalogueError> {
        match value {
            Some(t) if t.trim().is_empty() => Err(self.err(field, format!("`{field}` is empty"))),
            Some(t) => Ok(t.trim().to_owned()),
            None => Ok(String::new()),
        }
    }

    pub(super) fn hand(&self, field: &str, text: &str) -> Result<Hand, CatalogueError> {
        Hand::parse(text).ok_or_else(|| {
            self.err(
                field,
                format!(
                    "unknown hand `{text}` (expected rock, scissors or paper: グー, チョキ, パー)"
                ),
            )
        })
    }

    pub(super) fn hands(&self, field: &str, list: &[String]) -> Result<Vec<Hand>, CatalogueError> {
        if list.is_empty() {
            return Err(self.err(field, format!("`{field}` must name at least one hand")));
        }
        let mut out = Vec::with_capacity(list.len());
        for t in list {
            let h = self.hand(field, t)?;
            if out.contains(&h) {
                return Err(self.err(field, format!("`{field}` names {} twice", h.key())));
            }
            out.push(h);
        }
        out.sort();
        Ok(out)
    }

    pub(super) fn action(&self, field: &str, text: &str) -> Result<Action, CatalogueError> {
        parse_action(text).map_err(|m| self.err(field, m))
    }

    /// The three hand fields (all needed; `none` for a hand that does nothing).
    pub(super) fn actions(&self) -> Result<HandActions, CatalogueError> {
        let one = |field: &str, value: &Option<String>| -> Result<Option<Action>, CatalogueError> {
            self.need(field, value)?;
            let t = value.as_deref().unwrap_or_default();
            if matches!(t.trim().to_ascii_lowercase().as_str(), "none" | "-" | "—") {
                Ok(None)
            } else {
                self.action(field, t).map(Some)
            }
        };
        let actions = HandActions {
            rock: one("rock", &self.rc.rock)?,
            scissors: one("scissors", &self.rc.scissors)?,
            paper: one("paper", &self.rc.paper)?,
        };
        if actions.rock.is_none() && actions.scissors.is_none() && actions.paper.is_none() {
            return Err(self.err("rock", "a character needs an action for at least one hand"));
        }
        Ok(actions)
    }

    pub(super) fn hp_die(&self) -> Result<u8, CatalogueError> {
        Ok(self
            .int("hp_die", self.rc.hp_die, 2..=20)?
            .unwrap_or(DEFAULT_HP_DIE))
    }

    pub(super) fn categories(&self) -> Result<Vec<String>, CatalogueError> {
        let mut out: Vec<String> = Vec::new();
        for c in self.rc.categories.iter().flatten() {
            let name = strip_brackets(c, '《', '》');
            if name.is_empty() {
                return Err(self.err("categories", "a category name is empty"));
            }
            if out.contains(&name) {
                return Err(self.err("categories", format!("category `{name}` is listed twice")));
            }
            out.push(name);
        }
        Ok(out)
    }

    /// The skill icons; `character` when the kind may carry character skills.
    pub(super) fn icons(&self, character: bool) -> Result<Vec<SkillIcon>, CatalogueError> {
        let r = self.rc;
        let mut icons = Vec::new();
        if r.limited == Some(true) {
            icons.push(SkillIcon::Limited);
        }
        if !character {
            return Ok(icons);
        }
        match r.bullet {
            Some(_) => {
                let level = self.int("bullet", r.bullet, 1..=3)?.unwrap_or(1);
                let Some(hands) = &r.bullet_hands else {
                    return Err(self.missing_at(
                        "bullet",
                        "bullet_hands",
                        "a Bullet card needs `bullet_hands`, the hands with the Bullet mark",
                    ));
                };
                let marked_hands = self.hands("bullet_hands", hands)?;
                if r.bullet_cost.is_none() {
                    return Err(self.missing_at(
                        "bullet",
                        "bullet_cost",
                        "a Bullet card needs `bullet_cost`, the counters its effect removes",
                    ));
                }
                let cost = self
                    .int("bullet_cost", r.bullet_cost, 1..=i64::from(level))?
                    .unwrap_or(1);
                icons.push(SkillIcon::Bullet {
                    level,
                    marked_hands,
                    cost,
                });
            }
            None => {
                for (field, present) in [
                    ("bullet_hands", r.bullet_hands.is_some()),
                    ("bullet_cost", r.bullet_cost.is_some()),
                ] {
                    if present {
                        return Err(self.err(field, format!("`{field}` only goes with `bullet`")));
                    }
                }
            }
        }
        if r.clockwise == Some(true) {
            icons.push(SkillIcon::Clockwise);
        }
        match &r.dice {
            Some(d) => {
                let roll = DiceRoll::parse(d).map_err(|m| self.err("dice", m))?;
                if r.dice_effect.is_none() {
                    return Err(self.missing_at(
                        "dice",
                        "dice_effect",
                        "a Dice-rolling card needs `dice_effect`, what holds while the roll succeeded",
                    ));
                }
                let effect = self.text("dice_effect", &r.dice_effect)?;
                icons.push(SkillIcon::DiceRolling { roll, effect });
            }
            None => {
                if r.dice_effect.is_some() {
                    return Err(self.err("dice_effect", "`dice_effect` only goes with `dice`"));
                }
            }
        }
        if r.haste == Some(true) {
            icons.push(SkillIcon::Haste);
        }
        if let Some(hands) = &r.necromancy_hands {
            let marked_hands = self.hands("necromancy_hands", hands)?;
            icons.push(SkillIcon::Necromancy { marked_hands });
        }
        Ok(icons)
    }

    pub(super) fn supporter(&self) -> Result<Option<Supporter>, CatalogueError> {
        let r = self.rc;
        let Some(hand) = &r.support_hand else {
            for (field, present) in [
                ("support_action", r.support_action.is_some()),
                ("support_skill", r.support_skill.is_some()),
                ("support_passive", r.support_passive.is_some()),
            ] {
                if present {
                    return Err(self.err(
                        field,
                        format!("`{field}` needs `support_hand`, the supporter's attribute"),
                    ));
                }
            }
            return Ok(None);
        };
        let hand = self.hand("support_hand", hand)?;
        let Some(action) = &r.support_action else {
            return Err(self.missing_at(
                "support_hand",
                "support_action",
                "a supporter needs `support_action`, e.g. `atk 1`",
            ));
        };
        let action = self.action("support_action", action)?;
        let skill = self.text("support_skill", &r.support_skill)?;
        let passive = r.support_passive.unwrap_or(false);
        if passive && skill.is_empty() {
            return Err(self.missing_at(
                "support_passive",
                "support_skill",
                "a <PASSIVE> supporter needs `support_skill`",
            ));
        }
        Ok(Some(Supporter {
            hand,
            action,
            skill,
            passive,
        }))
    }

    pub(super) fn card(&self) -> Result<JunkKenCard, CatalogueError> {
        let r = self.rc;
        match r.kind.as_str() {
            "character" => {
                self.only(CHARACTER_FIELDS)?;
                self.need("cost", &r.cost)?;
                let cost = self.int("cost", r.cost, 0..=10)?.unwrap_or(0);
                Ok(JunkKenCard::Character(JunkKenCharacter {
                    cost,
                    hp_die: self.hp_die()?,
                    actions: self.actions()?,
                    supporter: self.supporter()?,
                    categories: self.categories()?,
                    icons: self.icons(true)?,
                }))
            }
            "gear" => {
                self.only(GEAR_FIELDS)?;
                self.need("cost", &r.cost)?;
                self.need("durability", &r.durability)?;
                let cost = self.int("cost", r.cost, 0..=10)?.unwrap_or(0);
                let durability = self.int("durability", r.durability, 1..=20)?.unwrap_or(1);
                Ok(JunkKenCard::Gear(JunkKenGear {
                    cost,
                    durability,
                    durability_event: self.text("durability_event", &r.durability_event)?,
                    categories: self.categories()?,
                    icons: self.icons(false)?,
                }))
            }
            "awakening" => {
                self.only(AWAKENING_FIELDS)?;
                let target = match (&r.target_character, &r.target_category) {
                    (Some(_), Some(_)) => {
                        return Err(self.err(
                            "target_category",
                            "an awakening card targets a 【character】 or a 《category》, not both",
                        ));
                    }
                    (Some(name), None) => {
                        let name = strip_brackets(name, '【', '】');
                        if name.is_empty() {
                            return Err(self.err("target_character", "`target_character` is empty"));
                        }
                        AwakenTarget::Character(name)
                    }
                    (None, Some(cat)) => {
                        let cat = strip_brackets(cat, '《', '》');
                        if cat.is_empty() {
                            return Err(self.err("target_category", "`target_category` is empty"));
                        }
                        AwakenTarget::Category(cat)
                    }
                    (None, None) => {
                        return Err(self.missing_at(
                            "kind",
                            "target_character",
                            format!(
                                "card `{}` (awakening) needs `target_character` (【name】) or `target_category` (《category》)",
                                r.id
                            ),
                        ));
                    }
                };
                Ok(JunkKenCard::Awakening(JunkKenAwakening {
                    target,
                    hp_die: self.hp_die()?,
                    actions: self.actions()?,
                    categories: self.categories()?,
                    icons: self.icons(true)?,
                }))
            }
            "field" => {
                self.only(FIELD_FIELDS)?;
                self.need("count", &r.count)?;
                self.need("scope", &r.scope)?;
                let count = self.int("count", r.count, 1..=20)?.unwrap_or(1);
                let attribute = match &r.attribute {
                    Some(a) => Some(self.hand("attribute", a)?),
                    None => None,
                };
                let scope_text = r.scope.as_deref().unwrap_or_default();
                let scope = match scope_text.trim().to_ascii_lowercase().as_str() {
                    "own" | "self" | "自分" => FieldScope::Own,
                    "opponent" | "相手" => FieldScope::Opponent,
                    "all" | "全員" => FieldScope::All,
                    _ => {
                        return Err(self.err(
                            "scope",
                            format!(
                                "unknown scope `{scope_text}` (expected own, opponent or all: 自分, 相手, 全員)"
                            ),
                        ));
                    }
                };
                let spend = self
                    .int("spend", r.spend, 0..=i64::from(count))?
                    .unwrap_or(1);
                Ok(JunkKenCard::Field(JunkKenField {
                    count,
                    attribute,
                    scope,
                    spend,
                    categories: self.categories()?,
                    icons: self.icons(false)?,
                }))
            }
            other => Err(self.err(
                "kind",
                format!(
                    "unknown JUNK-KEN card kind `{other}` (expected character, gear, awakening or field)"
                ),
            )),
        }
    }
}

/// Trims a name and drops the printed brackets around it (`《機械》` → `機械`).
pub(super) fn strip_brackets(text: &str, open: char, close: char) -> String {
    let t = text.trim();
    t.strip_prefix(open)
        .and_then(|s| s.strip_suffix(close))
        .unwrap_or(t)
        .trim()
        .to_owned()
}

impl AwakenTarget {
    /// True when `card` (the character in the battle zone) is a valid base for the awakening.
    pub fn matches(&self, card: &Card) -> bool {
        match self {
            AwakenTarget::Character(name) => card.name_ja == *name || card.name_en == *name,
            AwakenTarget::Category(cat) => card
                .junk_ken()
                .is_some_and(|c| c.categories().iter().any(|c| c == cat)),
        }
    }
}
