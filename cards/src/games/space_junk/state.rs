//! Space Junk's state: the house rules, the round's phases, each ship's spaces, cargo and fame,
//! attacks and rams, and the moves and events of a match.

use super::card::{Slot, SpaceJunkCard, Stat};
use crate::core::Seat;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rounds in a game.
pub const ROUNDS: u32 = 6;
/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players (six ship boards).
pub const MAX_PLAYERS: usize = 6;
/// Fame per completed orbit.
pub const ORBIT_FAME: i32 = 5;
/// Fame per attack hit.
pub const HIT_FAME: i32 = 3;
/// One hit for every full this-many points of the attack result.
pub const HIT_STEP: i32 = 5;
/// Rings on the board (1 inner, 2 middle, 3 outer).
pub const RINGS: u8 = 3;
/// Largest number a single entry may change (spaces, range, effect changes).
pub const MAX_CHANGE: i32 = 99;
/// The longest range offered on the attack buttons (a script may give any range).
pub const OFFERED_RANGE: u32 = 8;

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpaceJunk;

/// House rules: the gaps of `rules/space-junk.md` §10 that players could settle differently, and
/// the board data the seed does not print.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// §10 #2: spaces of the inner ring (ring 1), counted on the physical board.
    pub ring_length_inner: u16,
    /// §10 #2: spaces of the middle ring (ring 2).
    pub ring_length_middle: u16,
    /// §10 #2: spaces of the outer ring (ring 3).
    pub ring_length_outer: u16,
    /// §10 #1: search limit of the inner ring; `None`: no cap until entered.
    pub search_limit_inner: Option<u8>,
    /// §10 #1: search limit of the middle ring.
    pub search_limit_middle: Option<u8>,
    /// §10 #1: search limit of the outer ring.
    pub search_limit_outer: Option<u8>,
    /// §10 #7: the ring whose starting line every ship starts on (1 inner … 3 outer).
    pub start_ring: u8,
    /// §10 #10: a ship moves exactly its Move value (otherwise: up to it).
    pub exact_movement: bool,
    /// §10 #8: the first round in which ramming is allowed ("no ramming on the first turn").
    pub ram_from_round: u32,
    /// §10 #8: a ram winner may also take the loser's fuselage card.
    pub ram_can_take_fuselage: bool,
    /// §10 #9: ship values below 0 count as 0.
    pub floor_stats_at_zero: bool,
    /// §7 / §10 #16: the tie-break's best ship counts the character's values.
    pub tie_break_counts_character: bool,
    /// §3 / §8: the app pauses for cameo time after each search phase (otherwise the round ends
    /// after the last search).
    pub cameo: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            ring_length_inner: 16,
            ring_length_middle: 24,
            ring_length_outer: 32,
            search_limit_inner: None,
            search_limit_middle: None,
            search_limit_outer: None,
            start_ring: 1,
            exact_movement: true,
            ram_from_round: 2,
            ram_can_take_fuselage: false,
            floor_stats_at_zero: true,
            tie_break_counts_character: true,
            cameo: true,
        }
    }
}

impl Rules {
    /// Spaces of a ring (1..=3).
    pub fn ring_length(&self, ring: u8) -> u32 {
        u32::from(match ring {
            1 => self.ring_length_inner,
            2 => self.ring_length_middle,
            _ => self.ring_length_outer,
        })
        .max(1)
    }

    /// Search limit of a ring (1..=3), if configured.
    pub fn search_limit(&self, ring: u8) -> Option<u8> {
        match ring {
            1 => self.search_limit_inner,
            2 => self.search_limit_middle,
            _ => self.search_limit_outer,
        }
    }

    pub(super) fn check(&self) -> Result<(), String> {
        for (name, l) in [
            ("ring_length_inner", self.ring_length_inner),
            ("ring_length_middle", self.ring_length_middle),
            ("ring_length_outer", self.ring_length_outer),
        ] {
            if !(1..=999).contains(&l) {
                return Err(format!("{name} must be 1..=999, not {l}"));
            }
        }
        for (name, l) in [
            ("search_limit_inner", self.search_limit_inner),
            ("search_limit_middle", self.search_limit_middle),
            ("search_limit_outer", self.search_limit_outer),
        ] {
            if l == Some(0) {
                return Err(format!(
                    "{name} must be at least 1 (leave it out for no cap)"
                ));
            }
        }
        if !(1..=RINGS).contains(&self.start_ring) {
            return Err(format!("start_ring must be 1..=3, not {}", self.start_ring));
        }
        if self.ram_from_round < 1 {
            return Err("ram_from_round must be at least 1".into());
        }
        Ok(())
    }
}

/// A space of a ship board: slots 1–6 (1–2 Move, 3–4 Attack, 5–6 Search; die face n hits slot
/// n, §10 #5) or the fuselage. Written as the number `1`…`6` or the word `"fuselage"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Space {
    /// Slot 1..=6.
    Slot(u8),
    /// The fuselage: adds all three values; attacks cannot hit it.
    Fuselage,
}

impl Space {
    /// Every space, slots first.
    pub const ALL: [Space; 7] = [
        Space::Slot(1),
        Space::Slot(2),
        Space::Slot(3),
        Space::Slot(4),
        Space::Slot(5),
        Space::Slot(6),
        Space::Fuselage,
    ];

    /// What a card adds in this space.
    pub fn kind(self) -> Slot {
        match self {
            Space::Slot(1 | 2) => Slot::Move,
            Space::Slot(3 | 4) => Slot::Attack,
            Space::Slot(_) => Slot::Search,
            Space::Fuselage => Slot::Fuselage,
        }
    }

    /// Index in [`PlayerState::spaces`].
    pub fn index(self) -> usize {
        match self {
            Space::Slot(n) => usize::from(n.clamp(1, 6)) - 1,
            Space::Fuselage => 6,
        }
    }

    /// A label for the players, e.g. "slot 3 (Attack)".
    pub fn label(self) -> String {
        match self {
            Space::Slot(n) => format!("slot {n} ({})", slot_name(self.kind())),
            Space::Fuselage => "the fuselage".into(),
        }
    }

    /// The space in a Japanese sentence, in the window's words (スロット3（攻撃）, 胴体).
    pub fn label_ja(self) -> String {
        match self {
            Space::Slot(n) => {
                let kind = match self.kind() {
                    Slot::Move => "移動",
                    Slot::Attack => "攻撃",
                    Slot::Search => "探索",
                    Slot::Fuselage => "胴体",
                };
                format!("スロット{n}（{kind}）")
            }
            Space::Fuselage => "胴体".into(),
        }
    }
}

pub(super) fn slot_name(slot: Slot) -> &'static str {
    match slot {
        Slot::Move => "Move",
        Slot::Attack => "Attack",
        Slot::Search => "Search",
        Slot::Fuselage => "fuselage",
    }
}

/// A stat in a Japanese sentence, in the window's words.
pub(super) fn stat_name_ja(stat: Stat) -> &'static str {
    match stat {
        Stat::Move => "移動",
        Stat::Attack => "攻撃",
        Stat::Search => "探索",
    }
}

pub(super) fn stat_name(stat: Stat) -> &'static str {
    match stat {
        Stat::Move => "Move",
        Stat::Attack => "Attack",
        Stat::Search => "Search",
    }
}

impl Serialize for Space {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Space::Slot(n) => s.serialize_u8(*n),
            Space::Fuselage => s.serialize_str("fuselage"),
        }
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawSpace {
    Number(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for Space {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let bad = |what: &str| {
            D::Error::custom(format!("a ship space is 1..=6 or \"fuselage\", not {what}"))
        };
        match RawSpace::deserialize(d)? {
            RawSpace::Number(n @ 1..=6) => Ok(Space::Slot(n as u8)),
            RawSpace::Number(n) => Err(bad(&n.to_string())),
            RawSpace::Text(t) => match t.trim() {
                "fuselage" | "f" => Ok(Space::Fuselage),
                other => match other.parse::<u8>() {
                    Ok(n @ 1..=6) => Ok(Space::Slot(n)),
                    _ => Err(bad(&format!("`{other}`"))),
                },
            },
        }
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawList {
    List(Vec<String>),
    Text(String),
}

/// Reads a card list written as a JSON array or as one comma-separated text (`SJ10,SJ22`, as a
/// match script writes it).
pub(super) fn card_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match RawList::deserialize(d)? {
        RawList::List(v) => v,
        RawList::Text(t) => t
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
    })
}

/// Move, Attack and Search of a ship.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShipStats {
    /// Move.
    #[serde(rename = "move")]
    pub movement: i32,
    /// Attack.
    pub attack: i32,
    /// Search.
    pub search: i32,
}

impl ShipStats {
    /// One value.
    pub fn get(&self, stat: Stat) -> i32 {
        match stat {
            Stat::Move => self.movement,
            Stat::Attack => self.attack,
            Stat::Search => self.search,
        }
    }

    pub(super) fn get_mut(&mut self, stat: Stat) -> &mut i32 {
        match stat {
            Stat::Move => &mut self.movement,
            Stat::Attack => &mut self.attack,
            Stat::Search => &mut self.search,
        }
    }

    /// Move + Attack + Search.
    pub fn total(&self) -> i32 {
        self.movement + self.attack + self.search
    }

    pub(super) fn floored(self) -> Self {
        ShipStats {
            movement: self.movement.max(0),
            attack: self.attack.max(0),
            search: self.search.max(0),
        }
    }
}

/// The card data the game needs, copied from the catalogue at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    /// English name.
    pub name_en: String,
    /// Japanese name.
    pub name_ja: String,
    /// Printed text (abilities and effects the players resolve).
    pub text: String,
    /// Character or junk data.
    pub data: SpaceJunkCard,
}

/// Where a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// The junk deck.
    Deck,
    /// The discard pile (the space cooler).
    Discard,
    /// Drawn this search and not placed yet.
    Drawn(Seat),
    /// A player's cargo hold.
    Cargo(Seat),
    /// A space of a player's ship.
    Ship(Seat, Space),
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// The character card id, once dealt.
    pub character: Option<String>,
    /// Uses of the character's ability left, when the card limits them.
    pub ability_uses_left: Option<u8>,
    /// Fame on the points track (junk fame is added at the end).
    pub fame: i32,
    /// Ring 1 (inner) … 3 (outer).
    pub ring: u8,
    /// Spaces clockwise from the ring's starting line, 0..ring length.
    pub position: u32,
    /// Orbits completed.
    pub orbits: u32,
    /// Cards in slots 1–6 (indices 0–5) and the fuselage (index 6).
    pub spaces: [Option<String>; 7],
    /// The cargo hold, sorted.
    pub cargo: Vec<String>,
    /// Cards drawn this search, not yet placed.
    pub drawn: Vec<String>,
    /// Manual changes to Move / Attack / Search (abilities, card texts, corrections).
    pub modifiers: ShipStats,
}

impl PlayerState {
    /// The card in a space.
    pub fn at(&self, space: Space) -> Option<&str> {
        self.spaces.get(space.index()).and_then(|c| c.as_deref())
    }

    /// Equipped cards with their spaces.
    pub fn equipped(&self) -> impl Iterator<Item = (Space, &str)> {
        Space::ALL
            .into_iter()
            .filter_map(|s| self.at(s).map(|c| (s, c)))
    }
}

/// The attack being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackState {
    /// Who attacks.
    pub attacker: Seat,
    /// The target ship.
    pub target: Seat,
    /// Spaces between them, counted on the board.
    pub range: u32,
    /// The attack die, once rolled.
    pub roll: Option<u8>,
    /// Hits, once settled.
    pub hits: Option<u32>,
    /// Hit location dice so far.
    pub locations: Vec<u8>,
    /// Cards damaged by this attack.
    pub damaged: Vec<String>,
}

/// The last attack, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackReport {
    /// Round.
    pub round: u32,
    /// Attacker.
    pub attacker: Seat,
    /// Target.
    pub target: Seat,
    /// Attack die.
    pub roll: u8,
    /// Attack value with this turn's boosts.
    pub attack: i32,
    /// Range.
    pub range: u32,
    /// d6 + Attack − range.
    pub total: i32,
    /// Hits (each +3 fame).
    pub hits: u32,
    /// Location dice.
    pub locations: Vec<u8>,
    /// Cards damaged.
    pub damaged: Vec<String>,
}

/// A ram being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamState {
    /// The moving ship.
    pub rammer: Seat,
    /// The rammed ship.
    pub target: Seat,
    /// The rammer's die.
    pub rammer_roll: Option<u8>,
    /// The target's die.
    pub target_roll: Option<u8>,
}

/// The last ram, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamReport {
    /// Round.
    pub round: u32,
    /// Rammer.
    pub rammer: Seat,
    /// Target.
    pub target: Seat,
    /// d6 + 1 + R cards of the rammer.
    pub rammer_total: i32,
    /// d6 + R cards of the target.
    pub target_total: i32,
    /// The higher total; `None` on a tie.
    pub winner: Option<Seat>,
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// Characters are dealt and the first player is chosen.
    Setup,
    /// Move phase: this ship may boost, then chooses a ring and moves.
    Move {
        /// Whose turn.
        seat: Seat,
    },
    /// Move phase: the ship ended on another ship's space and may ram one of them.
    Ram {
        /// Whose turn.
        seat: Seat,
    },
    /// Move phase: both ram dice are rolled.
    RamDice,
    /// Move phase: the ram winner may take one piece of junk.
    RamTake {
        /// The higher roll.
        winner: Seat,
        /// The lower roll.
        loser: Seat,
    },
    /// Attack phase: this ship may attack another (boosts allowed).
    Attack {
        /// Whose turn.
        seat: Seat,
    },
    /// Attack phase: the attack die is rolled.
    AttackDie,
    /// Attack phase: after the roll the attacker may still damage `*`-Attack cards, then confirms.
    AttackBoost,
    /// Attack phase: one location die per hit.
    HitDice,
    /// Search phase: this ship may boost, then draws.
    Search {
        /// Whose turn.
        seat: Seat,
    },
    /// Search phase: the damaged cards are gone; the player rebuilds the ship.
    Rebuild {
        /// Whose turn.
        seat: Seat,
    },
    /// Cameo time: each player tells a story, from the first player.
    Cameo,
    /// The game is over.
    Over,
}

/// The three phases with turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Move,
    Attack,
    Search,
}

impl Phase {
    pub(super) fn stat(self) -> Stat {
        match self {
            Phase::Move => Stat::Move,
            Phase::Attack => Stat::Attack,
            Phase::Search => Stat::Search,
        }
    }
}

/// The whole state of a Space Junk match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules and board data.
    pub rules: Rules,
    /// The players by seat (clockwise).
    pub players: Vec<PlayerState>,
    /// Card data by id (the junk deck and every character of the catalogue).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// Round 1..=6 (0 during setup).
    pub round: u32,
    /// The first player this round.
    pub first: Seat,
    /// Current step.
    pub step: Step,
    /// The junk deck (unordered: the physical deck is shuffled), sorted.
    pub deck: Vec<String>,
    /// The discard pile, sorted.
    pub discard: Vec<String>,
    /// Damaged (turned) cards, sorted.
    pub damaged: Vec<String>,
    /// The player whose turn it is in the current phase.
    pub turn_seat: Option<Seat>,
    /// `*` boosts taken this turn.
    pub boosts: ShipStats,
    /// The attack being resolved.
    pub attack: Option<AttackState>,
    /// The ram being resolved.
    pub ram: Option<RamState>,
    /// The last attack.
    pub last_attack: Option<AttackReport>,
    /// The last ram.
    pub last_ram: Option<RamReport>,
}

/// A move at the Space Junk table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Move {
    /// Setup: the character card dealt (at random, by the table) to a player.
    DealCharacter {
        /// Who receives it.
        player: Seat,
        /// The character card id.
        card: String,
    },
    /// Setup: the first player, chosen at random by the table; round 1 begins.
    FirstPlayer {
        /// The first player.
        player: Seat,
    },
    /// Damage a `*` card of one's own ship for its one-time boost in the current phase (Move +3
    /// before moving, Attack +4 even after the roll, Search +2 before drawing).
    Boost {
        /// Whose card.
        player: Seat,
        /// The card.
        card: String,
    },
    /// Move phase: choose a ring and move clockwise.
    MoveShip {
        /// Who moves.
        player: Seat,
        /// Ring 1 (inner) … 3 (outer).
        ring: u8,
        /// Spaces moved; by default the Move value (with this turn's boosts).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spaces: Option<u32>,
    },
    /// Move phase: ram a ship on the same space.
    Ram {
        /// The rammer.
        player: Seat,
        /// The rammed ship.
        target: Seat,
    },
    /// Move phase: do not ram.
    NoRam {
        /// Who passes.
        player: Seat,
    },
    /// Move phase: the ram winner takes one card from the loser's ship.
    TakeJunk {
        /// The winner.
        player: Seat,
        /// The card taken.
        card: String,
    },
    /// Move phase: the ram winner takes nothing.
    NoTake {
        /// The winner.
        player: Seat,
    },
    /// Attack phase: fire at another ship.
    Attack {
        /// The attacker.
        player: Seat,
        /// The target.
        target: Seat,
        /// Spaces between the ships, counted on the board.
        range: u32,
    },
    /// Attack phase: do not attack.
    NoAttack {
        /// Who passes.
        player: Seat,
    },
    /// Attack phase: no more `*` boosts; settle the hits.
    ConfirmHits {
        /// The attacker.
        player: Seat,
    },
    /// Search phase: the cards drawn from the junk deck (after a reshuffle, from the new deck).
    Draw {
        /// Who draws.
        player: Seat,
        /// The card ids (a list, or one text `SJ10,SJ22`).
        #[serde(deserialize_with = "card_list")]
        cards: Vec<String>,
    },
    /// Search phase: put a drawn, cargo or ship card into a space (the card there goes to cargo, or
    /// swaps places with a card moved from another space).
    Equip {
        /// Whose ship.
        player: Seat,
        /// The card.
        card: String,
        /// The space: 1–6 or `fuselage`.
        space: Space,
    },
    /// Search phase: take a card off the ship into the cargo hold.
    Unequip {
        /// Whose ship.
        player: Seat,
        /// The card.
        card: String,
    },
    /// Search phase: the ship is built; unused drawn cards go to the cargo hold.
    FinishSearch {
        /// Who is done.
        player: Seat,
    },
    /// Cameo time is over: the first-player marker moves on and the next round begins.
    EndRound {},
    /// The result of a character ability or card text the players resolved.
    Effect {
        /// Whose ability or card.
        player: Seat,
        /// Fame gained (negative: lost).
        #[serde(default)]
        fame: i32,
        /// Change to the ship's Move (stays until changed back).
        #[serde(default, rename = "move")]
        movement: i32,
        /// Change to the ship's Attack.
        #[serde(default)]
        attack: i32,
        /// Change to the ship's Search.
        #[serde(default)]
        search: i32,
        /// Extra spaces moved clockwise in the current ring (orbits count).
        #[serde(default)]
        spaces: u32,
        /// A card of this player's that is no longer damaged.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        repair: Option<String>,
        /// Counts one use of the character's limited ability.
        #[serde(default)]
        ability: bool,
        /// What happened, in the players' words.
        #[serde(default)]
        note: String,
    },
}

/// One change of a Space Junk state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A character card was dealt.
    CharacterDealt(Seat, String),
    /// The first player is now this seat.
    FirstIs(Seat),
    /// A round begins.
    RoundBegan(u32),
    /// A player's turn in a phase begins: boosts reset.
    TurnBegan(Seat),
    /// The match moves to a step.
    StepTo(Step),
    /// A `*` card was damaged for a boost.
    Boosted {
        /// The player.
        seat: Seat,
        /// The card.
        card: String,
        /// Which value.
        stat: Stat,
        /// How much.
        amount: i32,
    },
    /// A ship changed ring and moved.
    Moved {
        /// The ship.
        seat: Seat,
        /// Its ring.
        ring: u8,
        /// Its new position.
        position: u32,
        /// Orbits completed by this move.
        orbits: u32,
    },
    /// Fame changed.
    Fame(Seat, i32),
    /// A card moved.
    CardMoved {
        /// The card.
        card: String,
        /// From.
        from: Place,
        /// To.
        to: Place,
    },
    /// The discard pile was shuffled into a new junk deck.
    Reshuffled,
    /// A card was damaged (turned 90°).
    Damaged(String),
    /// A card is no longer damaged.
    Repaired(String),
    /// A ram was declared.
    RamDeclared(Seat, Seat),
    /// A ram die was rolled by this seat.
    RamRolled(Seat, u8),
    /// A ram was settled.
    RamSettled(RamReport),
    /// An attack was declared.
    AttackDeclared(Seat, Seat, u32),
    /// The attack die.
    AttackRolled(u8),
    /// The hits of the attack.
    Hits(u32),
    /// A location die.
    LocationRolled(u8),
    /// The attack is over.
    AttackSettled(AttackReport),
    /// Manual or effect change of the ship's values.
    Modifiers(Seat, ShipStats),
    /// One use of the character's ability.
    AbilityUsed(Seat),
    /// Manual: set fame.
    SetFame(Seat, i32),
    /// Manual: set ring and position.
    SetPlace(Seat, u8, u32),
    /// Manual: set orbits.
    SetOrbits(Seat, u32),
    /// Manual: set ability uses left.
    SetAbilityUses(Seat, u8),
    /// Manual: set the round.
    SetRound(u32),
}

pub(super) fn insert_sorted(v: &mut Vec<String>, card: &str) {
    if let Err(i) = v.binary_search_by(|c| c.as_str().cmp(card)) {
        v.insert(i, card.to_owned());
    }
}

pub(super) fn remove_sorted(v: &mut Vec<String>, card: &str) {
    if let Ok(i) = v.binary_search_by(|c| c.as_str().cmp(card)) {
        v.remove(i);
    }
}
