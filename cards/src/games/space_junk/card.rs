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
//! [`check_deck`](super::deck::check_deck) and `docs/catalogue-space-junk.md`.
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

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
