//! The Space Junk card schema: character cards and junk cards, and the rules for the shared decks.
//!
//! A **character** has a Move, Attack and Search value and a special ability (its `text`,
//! resolved by the players). A **junk** card has up to three printed values, a `*` on any of them
//! (a one-time boost: +3 Move, +4 Attack or +2 Search when the card is damaged for it), an R
//! icon (+1 to the owner's die in a ram) and its fame, scored at the end of the game.
//!
//! Junk cards have no printed slot: any card can go in any space of a ship (seed, Search Phase:
//! "exchange them with any of the cards currently on their ship, including the fuselage"). Where it
//! sits decides what it adds ([`Junk::adds`]): in a Move, Attack or Search slot only that value, in
//! the fuselage all three.
//!
//! ```
//! use cards::catalogue::space_junk::{self, Slot, SpaceJunkCard, Stat};
//! let cat = space_junk::demo().unwrap();
//! let card = cat.card("SJ61").unwrap(); // Camper Van: Move 2, Attack 1, Search 1
//! let Some(SpaceJunkCard::Junk(van)) = card.space_junk() else { unreachable!() };
//! assert_eq!(van.adds(Slot::Move).movement, 2);
//! assert_eq!(van.adds(Slot::Move).attack, 0); // a slot card adds only its slot's value
//! assert_eq!(van.adds(Slot::Fuselage).attack, 1); // the fuselage adds all three
//! assert_eq!(Stat::Attack.star_boost(), 4);
//! ```
//!
//! Decks: Space Junk has no personal decks. The junk deck is shared by the table and the
//! characters are dealt at random, so both are registered with owner [`TABLE_OWNER`]: the junk
//! deck with no variant, the character pool with variant [`CHARACTERS_VARIANT`]. See
//! [`check_deck`] and `docs/catalogue-space-junk.md`.

use super::{CardData, CatalogueError, Ctx, RawCard, Span, raw_card};
use crate::core::Violation;
use crate::decks::{Deck, unknown_variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// The Space Junk demo set, embedded in the binary.
pub const DEMO_TOML: &str = include_str!("../../data/space-junk-demo.toml");

/// The owner of the shared Space Junk decks (the junk deck and the character pool).
pub const TABLE_OWNER: &str = "table";

/// The deck variant of the character pool; the junk deck has no variant.
pub const CHARACTERS_VARIANT: &str = "characters";

/// Fewest different junk cards in a shared junk deck: enough to fill all seven spaces (six slots
/// and the fuselage) of six ships once. An app default; the retail game has 150+ junk cards.
pub const MIN_JUNK_DECK: usize = 42;

/// Fewest different characters in a character pool: one for each of six players (the game has
/// six ship boards). An app default; the retail game has 8+ character cards.
pub const MIN_CHARACTERS: usize = 6;

/// Allowed Move, Attack and Search values of a character card.
pub const CHARACTER_VALUE_RANGE: RangeInclusive<i8> = 0..=9;

/// Allowed Move, Attack and Search values of a junk card (negative: a heavy item that slows).
pub const JUNK_VALUE_RANGE: RangeInclusive<i8> = -9..=9;

/// Allowed fame of a junk card.
pub const FAME_RANGE: RangeInclusive<i16> = -10..=30;

/// Allowed number of uses of a character's ability, when it has a limit.
pub const ABILITY_USES_RANGE: RangeInclusive<u8> = 1..=9;

/// The embedded Space Junk demo set.
pub fn demo() -> Result<super::Catalogue, CatalogueError> {
    super::Catalogue::load("space-junk-demo.toml (embedded)", DEMO_TOML)
}

/// One of a ship's three values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stat {
    /// Move: spaces moved clockwise in the move phase.
    Move,
    /// Attack: added to the attack die in the attack (combat) phase.
    Attack,
    /// Search: junk cards drawn in the search phase (capped by the ring's search limit).
    Search,
}

impl Stat {
    /// The three values in printed order.
    pub const ALL: [Stat; 3] = [Stat::Move, Stat::Attack, Stat::Search];

    /// The name used in files (`move`, `attack`, `search`).
    pub fn as_str(self) -> &'static str {
        match self {
            Stat::Move => "move",
            Stat::Attack => "attack",
            Stat::Search => "search",
        }
    }

    /// What damaging a card with a `*` in this value adds for the turn: Move +3, Attack +4,
    /// Search +2 (seed, Special Symbols).
    pub fn star_boost(self) -> i8 {
        match self {
            Stat::Move => 3,
            Stat::Attack => 4,
            Stat::Search => 2,
        }
    }
}

/// A space on a ship board that a junk card can be equipped in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// A Move slot (a ship has two): the card adds its Move value only.
    Move,
    /// An Attack slot (a ship has two): the card adds its Attack value only.
    Attack,
    /// A Search slot (a ship has two): the card adds its Search value only.
    Search,
    /// The fuselage space (one per ship): the card adds all three values.
    Fuselage,
}

impl Slot {
    /// Every kind of space.
    pub const ALL: [Slot; 4] = [Slot::Move, Slot::Attack, Slot::Search, Slot::Fuselage];

    /// The value a card adds in this slot; `None` for the fuselage, which adds all three.
    pub fn stat(self) -> Option<Stat> {
        match self {
            Slot::Move => Some(Stat::Move),
            Slot::Attack => Some(Stat::Attack),
            Slot::Search => Some(Stat::Search),
            Slot::Fuselage => None,
        }
    }
}

/// Move, Attack and Search values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stats {
    /// Move (TOML `move`).
    pub movement: i8,
    /// Attack.
    pub attack: i8,
    /// Search.
    pub search: i8,
}

impl Stats {
    /// The value of one stat.
    pub fn get(&self, stat: Stat) -> i8 {
        match stat {
            Stat::Move => self.movement,
            Stat::Attack => self.attack,
            Stat::Search => self.search,
        }
    }

    /// Move + Attack + Search (the tie-break compares this sum of the best ship).
    pub fn total(&self) -> i16 {
        i16::from(self.movement) + i16::from(self.attack) + i16::from(self.search)
    }
}

/// Which of a junk card's three values carry a `*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stars {
    /// `*` in Move: damage the card in your move for +3 Move this turn.
    pub movement: bool,
    /// `*` in Attack: damage the card in your attack (even after the roll) for +4 Attack.
    pub attack: bool,
    /// `*` in Search: damage the card in your search for +2 Search (the ring limit still applies).
    pub search: bool,
}

impl Stars {
    /// Whether this stat carries a `*`.
    pub fn get(&self, stat: Stat) -> bool {
        match stat {
            Stat::Move => self.movement,
            Stat::Attack => self.attack,
            Stat::Search => self.search,
        }
    }

    /// Whether any value carries a `*`.
    pub fn any(&self) -> bool {
        self.movement || self.attack || self.search
    }
}

/// A character card: the ship's base values and a special ability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// The character's Move, Attack and Search, added to every ship value.
    pub stats: Stats,
    /// How many times per game the ability may be used; `None` when the card sets no limit.
    /// The ability itself is the card's `text`, resolved by the players.
    pub ability_uses: Option<u8>,
}

/// A junk card: equipment for a ship and fame at the end of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Junk {
    /// The printed values; a blank value is 0, and so is a value printed only as `*`.
    pub values: Stats,
    /// The values marked with `*` (one-time boosts by damaging the card).
    pub stars: Stars,
    /// The R icon: +1 to its owner's die in every ram, while the card is in a ship space (not
    /// in cargo).
    pub ram: bool,
    /// Fame scored at the end of the game, whether the card is on the ship or in the cargo hold.
    pub fame: i16,
}

impl Junk {
    /// What this card adds to the ship's values when equipped in `slot`: its own value in a
    /// Move, Attack or Search slot, all three in the fuselage.
    pub fn adds(&self, slot: Slot) -> Stats {
        match slot.stat() {
            None => self.values,
            Some(stat) => {
                let mut out = Stats::default();
                match stat {
                    Stat::Move => out.movement = self.values.movement,
                    Stat::Attack => out.attack = self.values.attack,
                    Stat::Search => out.search = self.values.search,
                }
                out
            }
        }
    }

    /// The boost for damaging this card in the `stat` phase, if that value carries a `*`
    /// (wherever the card sits on the ship, fuselage included).
    pub fn star_boost(&self, stat: Stat) -> Option<i8> {
        self.stars.get(stat).then(|| stat.star_boost())
    }
}

/// What a Space Junk card is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SpaceJunkCard {
    /// A character card (TOML `kind = "character"`), dealt at random at setup.
    Character(Character),
    /// A junk card (TOML `kind = "junk"`), in the shared junk deck.
    Junk(Junk),
}

impl SpaceJunkCard {
    /// The character data, if this is a character card.
    pub fn character(&self) -> Option<&Character> {
        match self {
            SpaceJunkCard::Character(c) => Some(c),
            SpaceJunkCard::Junk(_) => None,
        }
    }

    /// The junk data, if this is a junk card.
    pub fn junk(&self) -> Option<&Junk> {
        match self {
            SpaceJunkCard::Junk(j) => Some(j),
            SpaceJunkCard::Character(_) => None,
        }
    }
}

raw_card!(RawSpaceJunkCard {
    kind: String,
    r#move: Option<i64>,
    attack: Option<i64>,
    search: Option<i64>,
    star_move: Option<bool>,
    star_attack: Option<bool>,
    star_search: Option<bool>,
    ram: Option<bool>,
    fame: Option<i64>,
    ability_uses: Option<i64>,
});

impl RawCard for RawSpaceJunkCard {
    fn common(&self) -> super::Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        space_junk_card(ctx, span, self).map(CardData::SpaceJunk)
    }
}

/// Checks that an optional integer field lies in `range` and narrows it.
fn ranged<T>(
    ctx: &Ctx<'_>,
    span: &Span,
    field: &str,
    value: Option<i64>,
    range: &RangeInclusive<T>,
) -> Result<Option<T>, CatalogueError>
where
    T: Copy + Into<i64> + TryFrom<i64>,
{
    let Some(v) = value else { return Ok(None) };
    let (lo, hi): (i64, i64) = ((*range.start()).into(), (*range.end()).into());
    ctx.in_range(span, field, v, lo..=hi)?;
    T::try_from(v)
        .map(Some)
        .map_err(|_| ctx.field_err(span, field, format!("{field} {v} is outside {lo}..={hi}")))
}

fn space_junk_card(
    ctx: &Ctx<'_>,
    span: &Span,
    rc: &RawSpaceJunkCard,
) -> Result<SpaceJunkCard, CatalogueError> {
    let id = rc.id.as_str();
    let kind = rc.kind.as_str();
    match kind {
        "character" => {
            ctx.need(span, id, kind, "move", &rc.r#move)?;
            ctx.need(span, id, kind, "attack", &rc.attack)?;
            ctx.need(span, id, kind, "search", &rc.search)?;
            ctx.forbid(span, id, kind, "star_move", &rc.star_move)?;
            ctx.forbid(span, id, kind, "star_attack", &rc.star_attack)?;
            ctx.forbid(span, id, kind, "star_search", &rc.star_search)?;
            ctx.forbid(span, id, kind, "ram", &rc.ram)?;
            ctx.forbid(span, id, kind, "fame", &rc.fame)?;
            let r = &CHARACTER_VALUE_RANGE;
            let stats = Stats {
                movement: ranged(ctx, span, "move", rc.r#move, r)?.unwrap_or_default(),
                attack: ranged(ctx, span, "attack", rc.attack, r)?.unwrap_or_default(),
                search: ranged(ctx, span, "search", rc.search, r)?.unwrap_or_default(),
            };
            let ability_uses = ranged(
                ctx,
                span,
                "ability_uses",
                rc.ability_uses,
                &ABILITY_USES_RANGE,
            )?;
            Ok(SpaceJunkCard::Character(Character {
                stats,
                ability_uses,
            }))
        }
        "junk" => {
            ctx.need(span, id, kind, "fame", &rc.fame)?;
            ctx.forbid(span, id, kind, "ability_uses", &rc.ability_uses)?;
            let r = &JUNK_VALUE_RANGE;
            let values = Stats {
                movement: ranged(ctx, span, "move", rc.r#move, r)?.unwrap_or_default(),
                attack: ranged(ctx, span, "attack", rc.attack, r)?.unwrap_or_default(),
                search: ranged(ctx, span, "search", rc.search, r)?.unwrap_or_default(),
            };
            let fame = ranged(ctx, span, "fame", rc.fame, &FAME_RANGE)?.unwrap_or_default();
            Ok(SpaceJunkCard::Junk(Junk {
                values,
                stars: Stars {
                    movement: rc.star_move.unwrap_or(false),
                    attack: rc.star_attack.unwrap_or(false),
                    search: rc.star_search.unwrap_or(false),
                },
                ram: rc.ram.unwrap_or(false),
                fame,
            }))
        }
        other => Err(ctx.field_err(
            span,
            "kind",
            format!("unknown Space Junk card kind `{other}` (expected character or junk)"),
        )),
    }
}

/// Which shared pile a deck file describes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pile {
    Junk,
    Characters,
}

/// Checks a Space Junk deck file against the construction rules.
///
/// Space Junk has no personal decks. A deck file describes one of the table's shared piles:
///
/// - no variant: **the junk deck**, shuffled and shared by everyone;
/// - `variant = "characters"`: **the character pool**, dealt one at random to each player.
///
/// Rules (one [`Violation`] each, when broken):
///
/// - `space-junk.deck-owner`: the owner is [`TABLE_OWNER`] (`table`), since no player owns them;
/// - `space-junk.deck-extra`: there is no extra deck;
/// - `space-junk.deck-kind`: the junk deck holds only junk cards, the pool only characters;
/// - `space-junk.deck-unique`: one copy of each card (every junk item is unique);
/// - `space-junk.deck-size`: at least [`MIN_JUNK_DECK`] different junk cards, or at least
///   [`MIN_CHARACTERS`] different characters.
///
/// Any other variant gives only the [`unknown_variant`] violation.
pub fn check_deck(deck: &Deck, catalogue: &super::Catalogue) -> Vec<Violation> {
    let pile = match deck.variant.as_deref() {
        None => Pile::Junk,
        Some(CHARACTERS_VARIANT) => Pile::Characters,
        Some(other) => return vec![unknown_variant(deck.game, other, &[CHARACTERS_VARIANT])],
    };
    let (what, fits): (&str, fn(&SpaceJunkCard) -> bool) = match pile {
        Pile::Junk => ("the shared junk deck", |c| c.junk().is_some()),
        Pile::Characters => ("the character pool", |c| c.character().is_some()),
    };
    let mut problems = Vec::new();
    if deck.owner != TABLE_OWNER {
        problems.push(Violation::new(
            "space-junk.deck-owner",
            format!(
                "Space Junk has no personal decks: {what} belongs to the whole table, so register \
                 it with owner \"{TABLE_OWNER}\" (not \"{}\").",
                deck.owner
            ),
            "space-junk.md §2; seed Setup; docs/catalogue-space-junk.md",
        ));
    }
    if !deck.extra.is_empty() {
        problems.push(Violation::new(
            "space-junk.deck-extra",
            format!(
                "Space Junk has no extra deck: list the {} card(s) under [main].",
                deck.extra.len()
            ),
            "space-junk.md §2; docs/catalogue-space-junk.md",
        ));
    }
    // Copies per card id of the main deck (sorted by id).
    let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &deck.main {
        *copies.entry(c.card.as_str()).or_default() += 1;
    }
    let mut wrong = Vec::new();
    let mut right = 0;
    for id in copies.keys() {
        match catalogue.card(id).and_then(super::Card::space_junk) {
            Some(card) if fits(card) => right += 1,
            _ => wrong.push(*id),
        }
    }
    if !wrong.is_empty() {
        let sentence = match pile {
            Pile::Junk => format!(
                "The shared junk deck holds only junk cards; characters are dealt from the \
                 character pool (variant \"{CHARACTERS_VARIANT}\"): {}.",
                wrong.join(", ")
            ),
            Pile::Characters => format!(
                "The character pool holds only character cards; junk cards belong in the shared \
                 junk deck: {}.",
                wrong.join(", ")
            ),
        };
        problems.push(Violation::new(
            "space-junk.deck-kind",
            sentence,
            "space-junk.md §2; seed Setup",
        ));
    }
    let repeated: Vec<String> = copies
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, n)| format!("{id} ({n} copies)"))
        .collect();
    if !repeated.is_empty() {
        let (sentence, reference) = match pile {
            Pile::Junk => (
                "Every junk card is unique, so the junk deck holds one copy of each",
                "space-junk.md §6 (every junk item is unique [J4])",
            ),
            Pile::Characters => (
                "Each character is a single card, so the pool holds one copy of each",
                "seed Setup (a random character card each); docs/catalogue-space-junk.md",
            ),
        };
        problems.push(Violation::new(
            "space-junk.deck-unique",
            format!("{sentence}: {}.", repeated.join(", ")),
            reference,
        ));
    }
    match pile {
        Pile::Junk if right < MIN_JUNK_DECK => problems.push(Violation::new(
            "space-junk.deck-size",
            format!(
                "The shared junk deck needs at least {MIN_JUNK_DECK} different junk cards, enough \
                 to fill every space of six ships; this one has {right}."
            ),
            "docs/catalogue-space-junk.md (default); seed Game Contents (150+ junk cards)",
        )),
        Pile::Characters if right < MIN_CHARACTERS => problems.push(Violation::new(
            "space-junk.deck-size",
            format!(
                "The character pool needs at least {MIN_CHARACTERS} different characters, one for \
                 each player of a full table of six; this one has {right}."
            ),
            "docs/catalogue-space-junk.md (default); seed Game Contents (8+ character cards, 6 ship boards)",
        )),
        _ => {}
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;

    const HEAD: &str = "format = 1\ngame = \"space-junk\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n[[cards]]\nid = \"A\"\nname_ja = \"a\"\nname_en = \"a\"\n";
    // HEAD has 10 lines: the first line after it is line 11.

    fn load(rest: &str) -> Result<Catalogue, CatalogueError> {
        Catalogue::load("x.toml", &format!("{HEAD}{rest}"))
    }

    fn err(rest: &str) -> (usize, Option<String>, String) {
        match load(rest) {
            Ok(_) => (0, None, "loaded".into()),
            Err(e) => (e.line, e.field.clone(), e.to_string()),
        }
    }

    fn junk_of(cat: &Catalogue) -> Vec<(&str, &Junk)> {
        cat.cards
            .iter()
            .filter_map(|c| {
                c.space_junk()
                    .and_then(SpaceJunkCard::junk)
                    .map(|j| (c.id.as_str(), j))
            })
            .collect()
    }

    fn characters_of(cat: &Catalogue) -> Vec<(&str, &Character)> {
        cat.cards
            .iter()
            .filter_map(|c| {
                c.space_junk()
                    .and_then(SpaceJunkCard::character)
                    .map(|ch| (c.id.as_str(), ch))
            })
            .collect()
    }

    /// A deck file for the demo set with these `[main]` lines.
    fn deck(owner: &str, variant: Option<&str>, main: &[String], extra: &[&str]) -> Deck {
        let mut text = format!(
            "format = 1\ngame = \"space-junk\"\nset = \"space-junk-demo\"\nname = \"D\"\nowner = \"{owner}\"\n"
        );
        if let Some(v) = variant {
            text.push_str(&format!("variant = \"{v}\"\n"));
        }
        text.push_str("[main]\n");
        for line in main {
            text.push_str(line);
            text.push('\n');
        }
        if !extra.is_empty() {
            text.push_str("[extra]\n");
            for line in extra {
                text.push_str(line);
                text.push('\n');
            }
        }
        match Deck::load("d.toml", &text) {
            Ok(d) => d,
            Err(e) => unreachable!("test deck does not load: {e}"),
        }
    }

    fn one_each(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|id| format!("{id} = 1")).collect()
    }

    fn rules(problems: &[Violation]) -> Vec<&str> {
        problems.iter().map(|v| v.rule.as_str()).collect()
    }

    // ------------------------------------------------------------------ the demo set

    #[test]
    fn demo_set_loads_with_every_kind_slot_ram_and_star() {
        // Given the embedded demo set
        let cat = demo().unwrap();
        // Then it is marked as made for the app, and has both kinds of card
        assert!(cat.set.demo);
        assert!(cat.set.note.contains("Not official"), "{}", cat.set.note);
        let junk = junk_of(&cat);
        let characters = characters_of(&cat);
        assert!(!junk.is_empty() && !characters.is_empty());
        // every slot has a card that is worth putting there
        for slot in [Slot::Move, Slot::Attack, Slot::Search] {
            let stat = slot.stat().unwrap();
            assert!(
                junk.iter().any(|(_, j)| j.adds(slot).get(stat) >= 2),
                "{slot:?}"
            );
        }
        assert!(
            junk.iter()
                .any(|(_, j)| Stat::ALL.iter().all(|s| j.values.get(*s) >= 1)),
            "a card adding all three values in the fuselage"
        );
        // the R icon, every * boost, a card with several stars, a negative value, a pure-fame card
        assert!(junk.iter().any(|(_, j)| j.ram));
        assert!(junk.iter().any(|(_, j)| !j.ram));
        for stat in Stat::ALL {
            assert!(junk.iter().any(|(_, j)| j.stars.get(stat)), "{stat:?}");
            // a * printed alone (value 0) and a * beside a number
            assert!(
                junk.iter()
                    .any(|(_, j)| j.stars.get(stat) && j.values.get(stat) == 0)
            );
            assert!(
                junk.iter()
                    .any(|(_, j)| j.stars.get(stat) && j.values.get(stat) > 0)
            );
        }
        assert!(
            junk.iter()
                .any(|(_, j)| Stat::ALL.iter().all(|s| j.stars.get(*s)))
        );
        assert!(
            junk.iter()
                .any(|(_, j)| Stat::ALL.iter().any(|s| j.values.get(*s) < 0))
        );
        assert!(
            junk.iter()
                .any(|(_, j)| j.values == Stats::default() && !j.stars.any())
        );
        // characters with and without a use limit on their ability, every one with its ability text
        assert!(characters.iter().any(|(_, c)| c.ability_uses.is_some()));
        assert!(characters.iter().any(|(_, c)| c.ability_uses.is_none()));
        for (id, _) in &characters {
            assert!(!cat.card(id).unwrap().text.is_empty(), "{id}");
        }
    }

    #[test]
    fn demo_set_is_big_enough_for_six_players_and_six_rounds() {
        let cat = demo().unwrap();
        assert!(characters_of(&cat).len() >= 6);
        // 6 ships × 7 spaces = 42 cards on the ships alone; the rest keeps the deck going
        // (the search draws about 3 cards a player a round before the reshuffles).
        assert!(junk_of(&cat).len() >= 60, "{}", junk_of(&cat).len());
        assert!(junk_of(&cat).len() >= MIN_JUNK_DECK);
    }

    #[test]
    fn demo_ids_fit_tags_and_every_card_has_both_names() {
        let cat = demo().unwrap();
        for (i, card) in cat.cards.iter().enumerate() {
            assert_eq!(card.id, format!("SJ{:02}", i + 1));
            assert!(card.id.len() <= crate::tags::MAX_CARD_ID);
            assert!(
                card.id
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            );
            assert!(!card.name_en.is_empty(), "{}", card.id);
            assert!(!card.name_ja.is_ascii(), "{}: {}", card.id, card.name_ja);
        }
    }

    #[test]
    fn demo_decks_are_legal_when_registered_to_the_table() {
        // Given the ready-made lists of the demo set, written as deck files
        let cat = demo().unwrap();
        for (list, variant) in [("junk", None), ("characters", Some(CHARACTERS_VARIANT))] {
            let ids = &cat.deck(list).unwrap().cards;
            let main = one_each(&ids.iter().map(String::as_str).collect::<Vec<_>>());
            // When they are checked
            let problems = deck(TABLE_OWNER, variant, &main, &[]).check(&cat).unwrap();
            // Then they break no rule
            assert!(problems.is_empty(), "{list}: {problems:?}");
        }
        // and together they hold every card of the set exactly once
        let mut all: Vec<&String> = cat.decks.iter().flat_map(|d| &d.cards).collect();
        all.sort();
        let ids: Vec<&String> = cat.cards.iter().map(|c| &c.id).collect();
        assert_eq!(all, ids);
    }

    // ------------------------------------------------------------------ the values

    #[test]
    fn slot_cards_add_one_value_and_the_fuselage_all_three() {
        // Worked example 1 (space-junk.md §11): character M2/A1/S1, fuselage M1/A2/S1, Move slots
        // M2 (A3) and M1, Attack slot A3, Search slot S2 → Move 6, Attack 6, Search 4.
        let card = |m, a, s| Junk {
            values: Stats {
                movement: m,
                attack: a,
                search: s,
            },
            stars: Stars::default(),
            ram: false,
            fame: 0,
        };
        let character = Stats {
            movement: 2,
            attack: 1,
            search: 1,
        };
        let ship = [
            (Slot::Fuselage, card(1, 2, 1)),
            (Slot::Move, card(2, 3, 0)),
            (Slot::Move, card(1, 0, 0)),
            (Slot::Attack, card(0, 3, 0)),
            (Slot::Search, card(0, 0, 2)),
        ];
        let total = ship.iter().fold(character, |acc, (slot, j)| {
            let add = j.adds(*slot);
            Stats {
                movement: acc.movement + add.movement,
                attack: acc.attack + add.attack,
                search: acc.search + add.search,
            }
        });
        assert_eq!(
            total,
            Stats {
                movement: 6,
                attack: 6,
                search: 4
            }
        );
        assert_eq!(total.total(), 16);
    }

    #[test]
    fn star_boosts_are_move_3_attack_4_search_2() {
        let cat = demo().unwrap();
        // SJ80 (Mysterious Glowing Rock) has a * in all three values
        let rock = cat
            .card("SJ80")
            .and_then(|c| c.space_junk())
            .and_then(SpaceJunkCard::junk);
        let rock = rock.unwrap();
        assert_eq!(rock.star_boost(Stat::Move), Some(3));
        assert_eq!(rock.star_boost(Stat::Attack), Some(4));
        assert_eq!(rock.star_boost(Stat::Search), Some(2));
        // SJ09 (Unicycle) has none
        let unicycle = cat
            .card("SJ09")
            .and_then(|c| c.space_junk())
            .and_then(SpaceJunkCard::junk);
        assert_eq!(unicycle.unwrap().star_boost(Stat::Move), None);
    }

    // ------------------------------------------------------------------ loading errors

    #[test]
    fn a_minimal_card_of_each_kind_loads() {
        let cat = load("kind = \"junk\"\nfame = 0\n").unwrap();
        let j = cat.cards[0]
            .space_junk()
            .and_then(SpaceJunkCard::junk)
            .unwrap();
        assert_eq!(
            (j.values, j.stars, j.ram, j.fame),
            (Stats::default(), Stars::default(), false, 0)
        );
        let cat = load("kind = \"character\"\nmove = 0\nattack = 9\nsearch = 1\n").unwrap();
        let c = cat.cards[0]
            .space_junk()
            .and_then(SpaceJunkCard::character)
            .unwrap();
        assert_eq!((c.stats.attack, c.ability_uses), (9, None));
    }

    #[test]
    fn out_of_range_values_name_line_and_field() {
        // Given a junk card whose search value is too big (line 13)
        let (line, field, msg) = err("kind = \"junk\"\nmove = 1\nsearch = 12\nfame = 1\n");
        // Then the error points at that line and field
        assert_eq!((line, field.as_deref()), (13, Some("search")), "{msg}");
        assert!(msg.contains("x.toml:13"), "{msg}");
        let (line, field, msg) = err("kind = \"junk\"\nfame = 99\n");
        assert_eq!((line, field.as_deref()), (12, Some("fame")), "{msg}");
        let (line, field, msg) = err("kind = \"character\"\nmove = -1\nattack = 1\nsearch = 1\n");
        assert_eq!((line, field.as_deref()), (12, Some("move")), "{msg}");
        let (line, field, msg) =
            err("kind = \"character\"\nmove = 1\nattack = 1\nsearch = 1\nability_uses = 0\n");
        assert_eq!(
            (line, field.as_deref()),
            (15, Some("ability_uses")),
            "{msg}"
        );
        // a number beyond what a card value can hold is a range error too, not a wrap-around
        let (line, field, msg) = err("kind = \"junk\"\nfame = 1\nattack = 300\n");
        assert_eq!((line, field.as_deref()), (13, Some("attack")), "{msg}");
    }

    #[test]
    fn wrong_types_and_unknown_fields_name_line() {
        let (line, _, msg) = err("kind = \"junk\"\nfame = 1\nstar_move = \"yes\"\n");
        assert_eq!(line, 13, "{msg}");
        // the digest's `ram_r` is spelled `ram` in the file
        let (line, field, msg) = err("kind = \"junk\"\nfame = 1\nram_r = true\n");
        assert_eq!((line, field.as_deref()), (13, Some("ram_r")), "{msg}");
    }

    #[test]
    fn unknown_kind_names_line_and_field() {
        let (line, field, msg) = err("kind = \"fuselage\"\nfame = 1\n");
        assert_eq!((line, field.as_deref()), (11, Some("kind")), "{msg}");
        assert!(msg.contains("character or junk"), "{msg}");
    }

    #[test]
    fn required_fields_are_named_at_the_kind_line() {
        // a character needs all three values
        let (line, field, msg) = err("kind = \"character\"\nmove = 1\nattack = 1\n");
        assert_eq!((line, field.as_deref()), (11, Some("search")), "{msg}");
        // a junk card needs its fame
        let (line, field, msg) = err("kind = \"junk\"\nmove = 1\n");
        assert_eq!((line, field.as_deref()), (11, Some("fame")), "{msg}");
    }

    #[test]
    fn forbidden_fields_are_named_at_their_line() {
        // junk-only fields on a character
        for (field, value) in [
            ("fame", "2"),
            ("ram", "true"),
            ("star_move", "true"),
            ("star_attack", "false"),
            ("star_search", "true"),
        ] {
            let (line, got, msg) = err(&format!(
                "kind = \"character\"\nmove = 1\nattack = 1\nsearch = 1\n{field} = {value}\n"
            ));
            assert_eq!((line, got.as_deref()), (15, Some(field)), "{msg}");
        }
        // a character-only field on a junk card
        let (line, field, msg) = err("kind = \"junk\"\nfame = 1\nability_uses = 1\n");
        assert_eq!(
            (line, field.as_deref()),
            (13, Some("ability_uses")),
            "{msg}"
        );
    }

    // ------------------------------------------------------------------ deck rules

    fn demo_ids(cat: &Catalogue, junk: bool) -> Vec<&str> {
        if junk {
            junk_of(cat).into_iter().map(|(id, _)| id).collect()
        } else {
            characters_of(cat).into_iter().map(|(id, _)| id).collect()
        }
    }

    #[test]
    fn a_legal_junk_deck_passes() {
        // Given every demo junk card once, registered to the table
        let cat = demo().unwrap();
        let d = deck(TABLE_OWNER, None, &one_each(&demo_ids(&cat, true)), &[]);
        // Then no rule is broken
        assert_eq!(d.check(&cat).unwrap(), vec![]);
        // and the smallest legal deck passes too
        let d = deck(
            TABLE_OWNER,
            None,
            &one_each(&demo_ids(&cat, true)[..MIN_JUNK_DECK]),
            &[],
        );
        assert_eq!(d.check(&cat).unwrap(), vec![]);
    }

    #[test]
    fn a_junk_deck_owned_by_a_player_is_refused() {
        let cat = demo().unwrap();
        let d = deck("Aki", None, &one_each(&demo_ids(&cat, true)), &[]);
        let problems = d.check(&cat).unwrap();
        assert_eq!(rules(&problems), ["space-junk.deck-owner"]);
        assert!(problems[0].sentence.contains("\"Aki\""), "{}", problems[0]);
    }

    #[test]
    fn a_character_in_the_junk_deck_is_refused() {
        let cat = demo().unwrap();
        let mut main = one_each(&demo_ids(&cat, true));
        main.push("SJ01 = 1".into());
        let problems = deck(TABLE_OWNER, None, &main, &[]).check(&cat).unwrap();
        assert_eq!(rules(&problems), ["space-junk.deck-kind"]);
        assert!(problems[0].sentence.contains("SJ01"), "{}", problems[0]);
    }

    #[test]
    fn a_second_copy_of_a_junk_card_is_refused() {
        let cat = demo().unwrap();
        let mut main = one_each(&demo_ids(&cat, true));
        main[0] = "SJ09 = 2".into();
        let problems = deck(TABLE_OWNER, None, &main, &[]).check(&cat).unwrap();
        assert_eq!(rules(&problems), ["space-junk.deck-unique"]);
        assert!(
            problems[0].sentence.contains("SJ09 (2 copies)"),
            "{}",
            problems[0]
        );
    }

    #[test]
    fn a_junk_deck_too_small_for_six_ships_is_refused() {
        let cat = demo().unwrap();
        let ids = demo_ids(&cat, true);
        let d = deck(TABLE_OWNER, None, &one_each(&ids[..MIN_JUNK_DECK - 1]), &[]);
        let problems = d.check(&cat).unwrap();
        assert_eq!(rules(&problems), ["space-junk.deck-size"]);
        assert!(problems[0].sentence.contains("has 41"), "{}", problems[0]);
    }

    #[test]
    fn an_extra_deck_is_refused() {
        let cat = demo().unwrap();
        let ids = demo_ids(&cat, true);
        let d = deck(TABLE_OWNER, None, &one_each(&ids[1..]), &["SJ09 = 1"]);
        let problems = d.check(&cat).unwrap();
        assert_eq!(rules(&problems), ["space-junk.deck-extra"]);
    }

    #[test]
    fn every_broken_rule_is_reported_once() {
        // Given a player's deck of 3 junk cards, one doubled, a character, and an extra section
        let cat = demo().unwrap();
        let main = vec![
            "SJ09 = 2".into(),
            "SJ10 = 1".into(),
            "SJ11 = 1".into(),
            "SJ02 = [1, 2]".into(),
        ];
        let d = deck("Ben", None, &main, &["SJ12 = 1"]);
        // Then each rule is cited once
        let problems = d.check(&cat).unwrap();
        assert_eq!(
            rules(&problems),
            [
                "space-junk.deck-owner",
                "space-junk.deck-extra",
                "space-junk.deck-kind",
                "space-junk.deck-unique",
                "space-junk.deck-size",
            ]
        );
        assert!(problems.iter().all(|v| !v.reference.is_empty()));
        // the doubled character counts as a repeated card, and wrong-kind cards do not count
        assert!(
            problems[3].sentence.contains("SJ02 (2 copies)"),
            "{}",
            problems[3]
        );
        assert!(problems[4].sentence.contains("has 3"), "{}", problems[4]);
    }

    #[test]
    fn the_character_pool_has_its_own_rules() {
        let cat = demo().unwrap();
        let characters = demo_ids(&cat, false);
        // Given every demo character once: legal
        let d = deck(
            TABLE_OWNER,
            Some(CHARACTERS_VARIANT),
            &one_each(&characters),
            &[],
        );
        assert_eq!(d.check(&cat).unwrap(), vec![]);
        // When a junk card is added: only characters belong there
        let mut main = one_each(&characters);
        main.push("SJ09 = 1".into());
        let problems = deck(TABLE_OWNER, Some(CHARACTERS_VARIANT), &main, &[])
            .check(&cat)
            .unwrap();
        assert_eq!(rules(&problems), ["space-junk.deck-kind"]);
        assert!(problems[0].sentence.contains("SJ09"), "{}", problems[0]);
        // When a character is doubled
        let mut main = one_each(&characters);
        main[0] = "SJ01 = 2".into();
        let problems = deck(TABLE_OWNER, Some(CHARACTERS_VARIANT), &main, &[])
            .check(&cat)
            .unwrap();
        assert_eq!(rules(&problems), ["space-junk.deck-unique"]);
        // When fewer than six characters are listed, or a player owns the pool
        let d = deck(
            "Aki",
            Some(CHARACTERS_VARIANT),
            &one_each(&characters[..5]),
            &[],
        );
        let problems = d.check(&cat).unwrap();
        assert_eq!(
            rules(&problems),
            ["space-junk.deck-owner", "space-junk.deck-size"]
        );
        assert!(problems[1].sentence.contains("has 5"), "{}", problems[1]);
    }

    #[test]
    fn an_unknown_variant_is_reported_alone() {
        let cat = demo().unwrap();
        let d = deck("Aki", Some("draft"), &one_each(&["SJ01", "SJ09"]), &[]);
        let problems = d.check(&cat).unwrap();
        assert_eq!(rules(&problems), ["deck.variant"]);
        assert!(
            problems[0].sentence.contains("characters"),
            "{}",
            problems[0]
        );
    }
}
